// Deleting an event also deletes its override children (and theirs): an override only means
// something as a change to its parent's occurrences.
import type { Principal } from '../http/principal';
import { requireScheduleEditor } from '../teams/team-admins';
import type { EventRecord } from './records';
import { findEvent } from './read-events';
import { listChildEvents, removeEvent } from './store';

export async function removeEventTree(accountId: string, eventId: string): Promise<EventRecord | null> {
  const removed = await removeEvent(accountId, eventId);
  const children = await listChildEvents(accountId, eventId, removed?.schedule_ids ?? []);
  await Promise.all(children.map((child) => removeEventTree(accountId, child.id)));
  return removed;
}

export async function deleteEvent(principal: Principal, rawId: string): Promise<void> {
  const current = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, current.schedule_ids, 'delete this event');
  await removeEventTree(principal.accountId, current.id);
}
