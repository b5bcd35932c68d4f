// Delete an account user (admin only): its API keys stop working, it leaves every team and every
// event (so no schedule puts a person who no longer exists on call), and a person left with no
// account at all is removed with their e-mail claims.
import { forgetAccountUser, forgetApiKey } from '../auth/authenticate';
import { apiKeysOf, deleteApiKeyRecord } from '../auth/api-keys';
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { NotFound } from '../http/errors';
import { removeAttendeeFromEvents } from '../events/remove-attendee';
import { parseId } from '../ids';
import { deleteItem } from '../store/items';
import { removeFromAllTeams } from '../teams/membership';
import { accountUsersOfUser, deleteAccountUserRecord, getUser, releaseEmail, userKey } from './store';

export async function deleteAccountUser(principal: Principal, rawId: string): Promise<void> {
  requireAdmin(principal, 'delete account users');
  const id = parseId('accountUser', rawId);
  const removed = id ? await deleteAccountUserRecord(principal.accountId, id) : null;
  if (!removed) throw new NotFound('Account user not found');
  forgetAccountUser(removed.id);
  for (const key of await apiKeysOf(principal.accountId, removed.id)) {
    await deleteApiKeyRecord(key);
    forgetApiKey(key.id);
  }
  await removeFromAllTeams(principal.accountId, removed.id);
  await removeAttendeeFromEvents(principal.accountId, removed.id);
  if ((await accountUsersOfUser(removed.user_id)).length === 0) {
    const user = await getUser(removed.user_id);
    if (user) {
      await deleteItem(userKey(user.id));
      await Promise.all(user.emails.map((e) => releaseEmail(e.email, user.id)));
    }
  }
}
