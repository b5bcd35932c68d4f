// Deleting an event also deletes its override children (and theirs): an override only means
// something as a change to its parent's occurrences.
import type { Principal } from '../auth/principal';
import { requireScheduleEditor } from '../teams/team-admins';
import type { EventRecord } from './records';
import { childrenOf, deleteEventRecord } from './store';
import { findEvent } from './find-event';

export async function removeEventTree(accountId: string, eventId: string): Promise<EventRecord | null> {
  const removed = await deleteEventRecord(accountId, eventId);
  const children = await childrenOf(accountId, eventId, removed?.schedule_ids ?? []);
  await Promise.all(children.map((child) => removeEventTree(accountId, child.id)));
  return removed;
}

export async function deleteEvent(principal: Principal, rawId: string): Promise<void> {
  const current = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, current.schedule_ids, 'delete this event');
  await removeEventTree(principal.accountId, current.id);
}
