// DELETE /api/v4/broadcasts/:id (an admin or the broadcast's creator): the broadcast, who it went to and
// their answers. Its notifications stay: they record what was sent.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { findBroadcastRecord } from './read-broadcasts';
import { removeBroadcast } from './store';
import { requireOwnerOrAdmin } from './update-broadcast';

export async function deleteBroadcast(principal: Principal, rawId: string): Promise<void> {
  const current = await findBroadcastRecord(principal, rawId);
  requireOwnerOrAdmin(principal, current, 'delete this broadcast');
  if (!(await removeBroadcast(principal.accountId, current.id))) throw new NotFound('Broadcast not found');
}
