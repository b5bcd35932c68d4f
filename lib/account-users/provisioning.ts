// What the account's identity provider sets on an account user beyond the person's profile (SCIM,
// docs/api.md#scim-provisioning): whether they are active, its own id for them and their name's
// parts. Deactivating someone stops their sign-in at once (their cached credentials are dropped, and
// authentication refuses a deactivated account user), their pages (lib/escalation treats them as
// nobody to page) and their turns in rotations from now on (lib/events/attendee-deactivation.ts);
// activating them again undoes all three from then on. Admins only (a SCIM token acts as one).
import { requireAdmin } from '../auth/permissions';
import { forgetAccountUser } from '../auth/principal-cache';
import { nowIso } from '../clock';
import { markAttendeeActive } from '../events/attendee-deactivation';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { logger } from '../log';
import { findAccountUser } from './read-account-users';
import type { AccountUserRecord } from './records';
import { saveAccountUser } from './store';

export interface ProvisioningChanges {
  active?: boolean;
  external_id?: string | null;
  name_parts?: AccountUserRecord['name_parts'];
}

export async function setProvisioning(principal: Principal, rawId: string, changes: ProvisioningChanges): Promise<AccountUserRecord> {
  requireAdmin(principal, 'activate or deactivate account users');
  const current = await findAccountUser(principal, rawId);
  const at = nowIso();
  const wasActive = !current.deactivated_at;
  const active = changes.active ?? wasActive;
  const next: AccountUserRecord = {
    ...current,
    deactivated_at: active ? null : (current.deactivated_at ?? at),
    external_id: changes.external_id === undefined ? (current.external_id ?? null) : changes.external_id,
    name_parts: changes.name_parts === undefined ? (current.name_parts ?? null) : changes.name_parts,
  };
  const unchanged =
    next.deactivated_at === (current.deactivated_at ?? null) &&
    next.external_id === (current.external_id ?? null) &&
    JSON.stringify(next.name_parts) === JSON.stringify(current.name_parts ?? null);
  if (unchanged) return current;
  const saved = { ...next, updated_at: at, version: current.version + 1 };
  if (!(await saveAccountUser(saved))) throw new Conflict('the account user was changed by another request; try again');
  if (active !== wasActive) {
    forgetAccountUser(current.id);
    await markAttendeeActive(current.account_id, current.id, active, at);
    logger.info(active ? 'account user activated' : 'account user deactivated', {
      accountId: current.account_id,
      accountUserId: current.id,
    });
  }
  return saved;
}
