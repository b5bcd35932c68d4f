// Role checks (docs/api.md#roles). Without `admin`, a caller may read everything in the account, create
// alerts and act on them, and update their own account user (not its roles).
import { Forbidden } from '../http/errors';
import type { Principal } from '../http/principal';

export function requireAdmin(principal: Principal, action = 'do this'): void {
  if (!principal.roles.admin) throw new Forbidden(`Only an account admin may ${action}`);
}

export function requireRole(principal: Principal, roles: (keyof Principal['roles'])[], action: string): void {
  if (!roles.some((role) => principal.roles[role])) {
    throw new Forbidden(`Only an account user with the ${roles.join(' or ')} role may ${action}`);
  }
}
