// POST /api/v4/events/:id/terminate_on (docs/api.md#schedules-and-events): the event's repetition ends before the
// occurrence that starts at action_time.
import type { Principal } from '../http/principal';
import { planTermination } from '../oncall/recurrence';
import { requireScheduleEditor } from '../teams/team-admins';
import { removeEventTree } from './delete-event';
import { draftOf, V4_FIELDS } from './drafts';
import { actionTimeOf, noOccurrence } from './event-inputs';
import { findEvent } from './read-events';
import { toOncallEvent, type EventRecord } from './records';
import { listChildEvents } from './store';
import { updateEvent } from './write-event';

/**
 * Removes the named occurrence and every later one: the repetition now ends with the occurrence
 * before it, and overrides that start at or after it go too. When it is the first occurrence the
 * whole event goes (null: the caller answers 204).
 */
export async function terminateOn(principal: Principal, rawId: string, body: unknown): Promise<EventRecord | null> {
  const event = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, event.schedule_ids, 'edit this event');
  const instant = actionTimeOf(event, body);
  const plan = planTermination(toOncallEvent(event), instant);
  if (!plan) throw noOccurrence(instant);
  if (plan.kind === 'delete') {
    await removeEventTree(principal.accountId, event.id);
    return null;
  }
  const draft = draftOf(event);
  draft.repeat_end = plan.repeatEnd;
  const updated = await updateEvent(principal, event, draft, V4_FIELDS);
  const children = await listChildEvents(principal.accountId, event.id, event.schedule_ids);
  await Promise.all(
    children.filter((child) => Date.parse(child.start_datetime) >= instant).map((child) => removeEventTree(principal.accountId, child.id)),
  );
  return updated;
}
