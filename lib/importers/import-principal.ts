// Who an import from the admin CLI acts as: an admin of the account (the audit trail names them,
// and the use cases check their rights as for any request).
import { accountUserCollection } from '../account-users/store';
import type { Principal } from '../http/principal';

/** The account's admin with this e-mail address, or its first admin; null when it has none. */
export async function importPrincipal(accountId: string, email?: string): Promise<Principal | null> {
  const users = await accountUserCollection(accountId).all();
  const admins = users.filter((user) => user.roles.admin);
  const chosen = email
    ? admins.find((user) => user.user.emails.some((entry) => entry.email.toLowerCase() === email.toLowerCase()))
    : admins.sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
  if (!chosen) return null;
  return { accountId, accountUserId: chosen.id, userId: chosen.user_id, roles: { ...chosen.roles }, via: 'api_key' };
}
