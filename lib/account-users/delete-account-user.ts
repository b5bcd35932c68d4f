// Delete an account user (admin only): its API keys stop working, it leaves every team and every
// event (so no schedule puts a person who no longer exists on call), and a person left with no
// account at all is removed with their e-mail claims.
import { deleteApiKeysOf } from '../api-keys/delete-api-key';
import { requireAdmin } from '../auth/permissions';
import { forgetAccountUser } from '../auth/principal-cache';
import { removeAttendeeFromEvents } from '../events/remove-attendee';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { removeFromAllTeams } from '../teams/membership';
import { getUser, listAccountUsersOfUser, releaseEmail, releaseSlackUser, removeAccountUser, removeUser } from './store';

export async function deleteAccountUser(principal: Principal, rawId: string): Promise<void> {
  requireAdmin(principal, 'delete account users');
  const id = parseId('accountUser', rawId);
  const removed = id ? await removeAccountUser(principal.accountId, id) : null;
  if (!removed) throw new NotFound('Account user not found');
  forgetAccountUser(removed.id);
  if (removed.slack_user_id) await releaseSlackUser(principal.accountId, removed.slack_user_id, removed.id);
  await deleteApiKeysOf(principal.accountId, removed.id);
  await removeFromAllTeams(principal.accountId, removed.id);
  await removeAttendeeFromEvents(principal.accountId, removed.id);
  if ((await listAccountUsersOfUser(removed.user_id)).length === 0) {
    const user = await getUser(removed.user_id);
    if (user) {
      await removeUser(user.id);
      await Promise.all(user.emails.map((e) => releaseEmail(e.email, user.id)));
    }
  }
}
