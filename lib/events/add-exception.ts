// POST /api/v4/events/:id/add_exception (docs/api.md#overrides-and-exceptions): removes the occurrence that starts at
// action_time (an action_time without an offset is read in the event's time zone).
import type { Principal } from '../http/principal';
import { findOccurrenceStartingAt } from '../oncall/recurrence';
import { requireScheduleEditor } from '../teams/team-admins';
import { draftOf, V4_FIELDS } from './drafts';
import { actionTimeOf, noOccurrence } from './event-inputs';
import { findEvent } from './read-events';
import { toOncallEvent, type EventRecord } from './records';
import { updateEvent } from './write-event';

/** Removes one occurrence. Naming an occurrence that is already removed changes nothing (a retry). */
export async function addException(principal: Principal, rawId: string, body: unknown): Promise<EventRecord> {
  const event = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, event.schedule_ids, 'edit this event');
  const instant = actionTimeOf(event, body);
  if (!findOccurrenceStartingAt(toOncallEvent(event), instant, { includeRemoved: true })) throw noOccurrence(instant);
  const draft = draftOf(event);
  if (draft.exceptions.includes(instant)) return event;
  draft.exceptions.push(instant);
  return updateEvent(principal, event, draft, V4_FIELDS);
}
