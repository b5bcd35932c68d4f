// DELETE /api/v4/teams/:id (account admins): the team goes; its schedule and escalation policy are
// objects of their own and stay.
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { syncChatSubscription } from './chat-webhooks';
import { findTeam } from './read-teams';
import { removeTeam } from './store';

export async function deleteTeam(principal: Principal, rawId: string): Promise<void> {
  const current = await findTeam(principal, rawId);
  requireAdmin(principal, 'delete teams');
  if (!(await removeTeam(current))) throw new NotFound('Team not found');
  await syncChatSubscription(current, null);
}
