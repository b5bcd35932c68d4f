// POST /api/v4/events and POST /event: each interface's input becomes a draft (datetimes without
// an offset are wall-clock times in the event's time zone, docs/api.md#requests), written by write-event.ts.
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import { requireScheduleEditor } from '../teams/team-admins';
import { attendeesFromAccountUserIds, attendeesFromUserIds } from './attendees';
import { EARLIER_FIELDS, newDraft, V4_FIELDS } from './drafts';
import { instantOrMessage, rawIdList, scheduleIdsOrMessages, unixOrMessage, zoneOrMessage } from './event-inputs';
import type { EventRecord } from './records';
import { earlierCreateEventInput, v4CreateEventInput } from './schemas';
import { createEvent } from './write-event';

export async function createV4Event(principal: Principal, body: Record<string, unknown>): Promise<EventRecord> {
  await requireScheduleEditor(principal, rawIdList(body.schedule_ids, 'schedule'), 'create events');
  const input = parseInput(v4CreateEventInput, body);
  const messages: string[] = [];
  const zone = zoneOrMessage(input.time_zone, 'time_zone', messages);
  const start = zone ? instantOrMessage(input.start_datetime, zone, 'start_datetime', messages) : null;
  const end = zone ? instantOrMessage(input.end_datetime, zone, 'end_datetime', messages) : null;
  const repeatEnd =
    zone && input.repeat_end_datetime ? instantOrMessage(input.repeat_end_datetime, zone, 'repeat_end_datetime', messages) : null;
  const parentId = input.parent_id ? parseId('event', input.parent_id) : null;
  if (input.parent_id && !parentId) messages.push(`parent_id is not an event id: ${input.parent_id}`);
  const scheduleIds = input.schedule_ids ?? [];
  const badSchedules = scheduleIds.filter((id) => !parseId('schedule', id));
  for (const id of badSchedules) messages.push(`schedule_ids contains an id that is not a schedule: ${id}`);
  const attendees = await attendeesFromAccountUserIds(principal.accountId, 'account_user_ids', input.account_user_ids, messages);
  if (messages.length > 0) throw new Invalid(messages);

  const draft = newDraft(input, {
    start: start!,
    end: end!,
    time_zone: input.time_zone,
    repeat_end: repeatEnd,
    parent_id: parentId,
    schedule_ids: scheduleIds.map((id) => parseId('schedule', id)!),
    attendees,
    exceptions: [],
  });
  return createEvent(principal, draft, V4_FIELDS);
}

export async function createEarlierEvent(principal: Principal, body: Record<string, unknown>): Promise<EventRecord> {
  await requireScheduleEditor(principal, rawIdList(body.schedule_id, 'schedule'), 'create events');
  const input = parseInput(earlierCreateEventInput, body);
  const messages: string[] = [];
  const timeZone = input.timezone ?? 'UTC';
  const zone = zoneOrMessage(timeZone, 'timezone', messages) ?? 'UTC';
  const start = unixOrMessage(input.start, zone, 'start', messages);
  const end = unixOrMessage(input.end, zone, 'end', messages);
  const repeatEnd =
    input.repeatend === null || input.repeatend === undefined ? null : unixOrMessage(input.repeatend, zone, 'repeatend', messages);
  const exceptions = (input.exceptions ?? []).map((e, i) => unixOrMessage(e.start, zone, `exceptions[${i}].start`, messages));
  const scheduleIds = scheduleIdsOrMessages(input.schedule_id, messages);
  const attendees = await attendeesFromUserIds(principal.accountId, 'attendees', input.attendees, messages);
  if (messages.length > 0) throw new Invalid(messages);

  const draft = newDraft(
    { ...input, days_of_week: input.dow },
    {
      start: start!,
      end: end!,
      time_zone: timeZone,
      repeat_end: repeatEnd,
      parent_id: null,
      schedule_ids: scheduleIds,
      attendees,
      exceptions: exceptions as number[],
    },
  );
  return createEvent(principal, draft, EARLIER_FIELDS);
}
