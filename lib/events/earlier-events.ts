// Earlier-interface create and update of events (api-earlier.md "Event"): start, end and repeatend
// are Unix seconds, schedule_id is an array of schedule ids, attendees are user ids.
import type { Principal } from '../auth/principal';
import { Invalid } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import type { FrequencyUnit } from '../oncall/types';
import { mergeMeta } from '../teams/inputs';
import { requireScheduleEditor } from '../teams/team-admins';
import { attendeesFromUserIds } from './attendees';
import { parseDateTimeIn } from './datetimes';
import { draftOf, EARLIER_FIELDS, type EventDraft } from './drafts';
import { ianaZoneOf, type EventRecord } from './records';
import { earlierCreateEventInput, earlierUpdateEventInput } from './schemas';
import { createEvent, updateEvent } from './write-event';
import { rawIdList, zoneOrMessage } from './event-inputs';
import { findEvent } from './find-event';

function unixOrMessage(raw: number | string, zone: string, field: string, messages: string[]): number | null {
  if (typeof raw === 'number') return Math.round(raw * 1000);
  if (/^-?\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
  const instant = parseDateTimeIn(raw, zone);
  if (instant === null) messages.push(`${field} must be a Unix timestamp in seconds`);
  return instant;
}

function scheduleIdsOrMessages(raw: string[], messages: string[]): string[] {
  const ids: string[] = [];
  for (const value of raw) {
    const id = parseId('schedule', value);
    if (id) ids.push(id);
    else messages.push(`schedule_id contains an id that is not a schedule: ${value}`);
  }
  return ids;
}

export async function createEarlierEvent(principal: Principal, body: Record<string, unknown>): Promise<EventRecord> {
  await requireScheduleEditor(principal, rawIdList(body.schedule_id, 'schedule'), 'create events');
  const input = parseInput(earlierCreateEventInput, body);
  const messages: string[] = [];
  const timeZone = input.timezone ?? 'UTC';
  const zone = zoneOrMessage(timeZone, 'timezone', messages) ?? 'UTC';
  const start = unixOrMessage(input.start, zone, 'start', messages);
  const end = unixOrMessage(input.end, zone, 'end', messages);
  const repeatEnd = input.repeatend === null || input.repeatend === undefined ? null : unixOrMessage(input.repeatend, zone, 'repeatend', messages);
  const exceptions = (input.exceptions ?? []).map((e, i) => unixOrMessage(e.start, zone, `exceptions[${i}].start`, messages));
  const scheduleIds = scheduleIdsOrMessages(input.schedule_id, messages);
  const { attendees, messages: attendeeMessages } = await attendeesFromUserIds(principal.accountId, 'attendees', input.attendees);
  messages.push(...attendeeMessages);
  if (messages.length > 0) throw new Invalid(messages);

  const draft: EventDraft = {
    start: start!,
    end: end!,
    layer: input.layer,
    time_zone: timeZone,
    repeat: input.repeat ?? false,
    frequency: input.frequency ?? null,
    frequency_unit: (input.frequency_unit as FrequencyUnit | null | undefined) ?? null,
    days_of_week: input.dow ?? [],
    repeat_end: repeatEnd,
    rotation: input.rotation ?? false,
    parent_id: null,
    schedule_ids: scheduleIds,
    attendees,
    exceptions: exceptions as number[],
    meta: mergeMeta({}, input.meta),
  };
  return createEvent(principal, draft, EARLIER_FIELDS);
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
  if (input.layer !== undefined) draft.layer = input.layer;
  if (input.repeat !== undefined) draft.repeat = input.repeat;
  if (input.frequency !== undefined) draft.frequency = input.frequency;
  if (input.frequency_unit !== undefined) draft.frequency_unit = input.frequency_unit as FrequencyUnit | null;
  if (input.dow !== undefined) draft.days_of_week = input.dow ?? [];
  if (input.rotation !== undefined) draft.rotation = input.rotation;
  if (input.schedule_id !== undefined) draft.schedule_ids = scheduleIdsOrMessages(input.schedule_id, messages);
  if (input.attendees !== undefined) {
    const resolved = await attendeesFromUserIds(principal.accountId, 'attendees', input.attendees);
    messages.push(...resolved.messages);
    draft.attendees = resolved.attendees;
  }
  draft.meta = mergeMeta(draft.meta, input.meta);
  if (messages.length > 0) throw new Invalid(messages);
  return updateEvent(principal, current, draft, EARLIER_FIELDS, { checkExceptions: input.exceptions !== undefined });
}
