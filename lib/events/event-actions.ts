// Event operations (api-v4.md "Event operations", contract §7): override, add_exception,
// terminate_on. Each names an occurrence by its start (action_time); one that starts no occurrence
// is a 422. An action_time without an offset is a wall-clock time in the event's time zone.
import type { Principal } from '../auth/principal';
import { Invalid } from '../http/errors';
import { parseInput } from '../http/validate';
import { findOccurrenceStartingAt, planTermination } from '../oncall/recurrence';
import { requireScheduleEditor } from '../teams/team-admins';
import { attendeesFromAccountUserIds } from './attendees';
import { parseDateTimeIn } from './datetimes';
import { removeEventTree } from './delete-event';
import { draftOf, V4_FIELDS, type EventDraft, type EventFieldNames } from './drafts';
import { ianaZoneOf, toOncallEvent, type EventRecord } from './records';
import { actionTimeInput, overrideInput } from './schemas';
import { childrenOf } from './store';
import { instantOrMessage, zoneOrMessage } from './event-inputs';
import { findEvent } from './find-event';
import { createEvent, updateEvent } from './write-event';

const OVERRIDE_FIELDS: EventFieldNames = { ...V4_FIELDS, start: 'start_time', end: 'end_time' };

function actionTimeOf(event: EventRecord, body: unknown): number {
  const input = parseInput(actionTimeInput, body);
  const instant = parseDateTimeIn(input.action_time, ianaZoneOf(event));
  if (instant === null) throw new Invalid('action_time must be an ISO 8601 datetime (e.g. 2026-03-29T09:00:00+02:00)');
  return instant;
}

function noOccurrence(instant: number): Invalid {
  return new Invalid(`action_time ${new Date(instant).toISOString()} is not the start of an occurrence of this event`);
}

/** Creates the override child: the given attendees on the given layer for the given span. */
export async function overrideEvent(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<EventRecord> {
  const parent = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, parent.schedule_ids, 'override this event');
  const input = parseInput(overrideInput, body);
  const messages: string[] = [];
  const zone = zoneOrMessage(input.time_zone, 'time_zone', messages);
  const start = zone ? instantOrMessage(input.start_time, zone, 'start_time', messages) : null;
  const end = zone ? instantOrMessage(input.end_time, zone, 'end_time', messages) : null;
  const actionTime = parseDateTimeIn(input.action_time, ianaZoneOf(parent));
  if (actionTime === null) messages.push('action_time must be an ISO 8601 datetime (e.g. 2026-03-29T09:00:00+02:00)');
  const { attendees, messages: attendeeMessages } = await attendeesFromAccountUserIds(principal.accountId, 'account_user_ids', input.account_user_ids);
  messages.push(...attendeeMessages);
  if (messages.length > 0) throw new Invalid(messages);
  if (!findOccurrenceStartingAt(toOncallEvent(parent), actionTime!)) throw noOccurrence(actionTime!);

  const draft: EventDraft = {
    start: start!,
    end: end!,
    layer: input.layer,
    time_zone: input.time_zone,
    repeat: false,
    frequency: null,
    frequency_unit: null,
    days_of_week: [],
    repeat_end: null,
    rotation: false,
    parent_id: parent.id,
    schedule_ids: [...parent.schedule_ids],
    attendees,
    exceptions: [],
    meta: {},
  };
  return createEvent(principal, draft, OVERRIDE_FIELDS);
}

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
  const children = await childrenOf(principal.accountId, event.id, event.schedule_ids);
  await Promise.all(
    children.filter((child) => Date.parse(child.start_datetime) >= instant).map((child) => removeEventTree(principal.accountId, child.id)),
  );
  return updated;
}
