// PUT /api/v4/events/:id and PUT /event/:id: only the fields sent change; datetimes without an
// offset are read in the event's time zone (the one sent, or the stored one).
import { mergeKeys } from '../http/changes';
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import { requireScheduleEditor } from '../teams/team-admins';
import { attendeesFromAccountUserIds, attendeesFromUserIds } from './attendees';
import { applyRepeatFields, draftOf, EARLIER_FIELDS, V4_FIELDS } from './drafts';
import { instantOrMessage, scheduleIdsOrMessages, unixOrMessage, zoneOrMessage } from './event-inputs';
import { findEvent } from './read-events';
import { ianaZoneOf, type EventRecord } from './records';
import { earlierUpdateEventInput, v4UpdateEventInput } from './schemas';
import { updateEvent } from './write-event';

export async function updateV4Event(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<EventRecord> {
  const current = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, current.schedule_ids, 'edit this event');
  const input = parseInput(v4UpdateEventInput, body);
  const messages: string[] = [];
  const draft = draftOf(current);
  let zone: string | null = ianaZoneOf(current);
  if (input.time_zone !== undefined) {
    zone = zoneOrMessage(input.time_zone, 'time_zone', messages);
    draft.time_zone = input.time_zone;
  }
  if (zone) {
    if (input.start_datetime !== undefined)
      draft.start = instantOrMessage(input.start_datetime, zone, 'start_datetime', messages) ?? draft.start;
    if (input.end_datetime !== undefined) draft.end = instantOrMessage(input.end_datetime, zone, 'end_datetime', messages) ?? draft.end;
    if (input.repeat_end_datetime !== undefined) {
      draft.repeat_end =
        input.repeat_end_datetime === null
          ? null
          : (instantOrMessage(input.repeat_end_datetime, zone, 'repeat_end_datetime', messages) ?? null);
    }
  }
  applyRepeatFields(draft, input);
  if (input.schedule_ids !== undefined) {
    const bad = input.schedule_ids.filter((id) => !parseId('schedule', id));
    for (const id of bad) messages.push(`schedule_ids contains an id that is not a schedule: ${id}`);
    draft.schedule_ids = input.schedule_ids.map((id) => parseId('schedule', id)).filter((id): id is string => id !== null);
  }
  if (input.account_user_ids !== undefined) {
    draft.attendees = await attendeesFromAccountUserIds(principal.accountId, 'account_user_ids', input.account_user_ids, messages);
  }
  draft.meta = mergeKeys(draft.meta, input.meta, 'meta');
  if (messages.length > 0) throw new Invalid(messages);
  return updateEvent(principal, current, draft, V4_FIELDS);
}

export async function updateEarlierEvent(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<EventRecord> {
  const current = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, current.schedule_ids, 'edit this event');
  const input = parseInput(earlierUpdateEventInput, body);
  const messages: string[] = [];
  const draft = draftOf(current);
  let zone = ianaZoneOf(current);
  if (input.timezone !== undefined) {
    zone = zoneOrMessage(input.timezone, 'timezone', messages) ?? zone;
    draft.time_zone = input.timezone;
  }
  if (input.start !== undefined) draft.start = unixOrMessage(input.start, zone, 'start', messages) ?? draft.start;
  if (input.end !== undefined) draft.end = unixOrMessage(input.end, zone, 'end', messages) ?? draft.end;
  if (input.repeatend !== undefined) {
    draft.repeat_end = input.repeatend === null ? null : (unixOrMessage(input.repeatend, zone, 'repeatend', messages) ?? null);
  }
  if (input.exceptions !== undefined) {
    draft.exceptions = input.exceptions
      .map((e, i) => unixOrMessage(e.start, zone, `exceptions[${i}].start`, messages))
      .filter((v): v is number => v !== null);
  }
  applyRepeatFields(draft, { ...input, days_of_week: input.dow });
  if (input.schedule_id !== undefined) draft.schedule_ids = scheduleIdsOrMessages(input.schedule_id, messages);
  if (input.attendees !== undefined) {
    draft.attendees = await attendeesFromUserIds(principal.accountId, 'attendees', input.attendees, messages);
  }
  draft.meta = mergeKeys(draft.meta, input.meta, 'meta');
  if (messages.length > 0) throw new Invalid(messages);
  return updateEvent(principal, current, draft, EARLIER_FIELDS, { checkExceptions: input.exceptions !== undefined });
}
