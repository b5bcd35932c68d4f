// v4 create and update of events (api-v4.md "Event"): datetimes without an offset are wall-clock
// times in the event's time_zone (contract §4) — the one sent, or on update the stored one.
import type { Principal } from '../auth/principal';
import { Invalid } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import type { FrequencyUnit } from '../oncall/types';
import { mergeMeta } from '../teams/inputs';
import { requireScheduleEditor } from '../teams/team-admins';
import { attendeesFromAccountUserIds } from './attendees';
import { instantOrMessage, rawIdList, zoneOrMessage } from './event-inputs';
import { findEvent } from './find-event';
import { draftOf, V4_FIELDS, type EventDraft } from './drafts';
import { ianaZoneOf, type EventRecord } from './records';
import { v4CreateEventInput, v4UpdateEventInput } from './schemas';
import { createEvent, updateEvent } from './write-event';

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
  const { attendees, messages: attendeeMessages } = await attendeesFromAccountUserIds(principal.accountId, 'account_user_ids', input.account_user_ids);
  messages.push(...attendeeMessages);
  if (messages.length > 0) throw new Invalid(messages);

  const draft: EventDraft = {
    start: start!,
    end: end!,
    layer: input.layer,
    time_zone: input.time_zone,
    repeat: input.repeat ?? false,
    frequency: input.frequency ?? null,
    frequency_unit: (input.frequency_unit as FrequencyUnit | null | undefined) ?? null,
    days_of_week: input.days_of_week ?? [],
    repeat_end: repeatEnd,
    rotation: input.rotation ?? false,
    parent_id: parentId,
    schedule_ids: scheduleIds.map((id) => parseId('schedule', id)!),
    attendees,
    exceptions: [],
    meta: mergeMeta({}, input.meta),
  };
  return createEvent(principal, draft, V4_FIELDS);
}

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
    if (input.start_datetime !== undefined) draft.start = instantOrMessage(input.start_datetime, zone, 'start_datetime', messages) ?? draft.start;
    if (input.end_datetime !== undefined) draft.end = instantOrMessage(input.end_datetime, zone, 'end_datetime', messages) ?? draft.end;
    if (input.repeat_end_datetime !== undefined) {
      draft.repeat_end =
        input.repeat_end_datetime === null ? null : (instantOrMessage(input.repeat_end_datetime, zone, 'repeat_end_datetime', messages) ?? null);
    }
  }
  if (input.layer !== undefined) draft.layer = input.layer;
  if (input.repeat !== undefined) draft.repeat = input.repeat;
  if (input.frequency !== undefined) draft.frequency = input.frequency;
  if (input.frequency_unit !== undefined) draft.frequency_unit = input.frequency_unit as FrequencyUnit | null;
  if (input.days_of_week !== undefined) draft.days_of_week = input.days_of_week ?? [];
  if (input.rotation !== undefined) draft.rotation = input.rotation;
  if (input.schedule_ids !== undefined) {
    const bad = input.schedule_ids.filter((id) => !parseId('schedule', id));
    for (const id of bad) messages.push(`schedule_ids contains an id that is not a schedule: ${id}`);
    draft.schedule_ids = input.schedule_ids.map((id) => parseId('schedule', id)).filter((id): id is string => id !== null);
  }
  if (input.account_user_ids !== undefined) {
    const resolved = await attendeesFromAccountUserIds(principal.accountId, 'account_user_ids', input.account_user_ids);
    messages.push(...resolved.messages);
    draft.attendees = resolved.attendees;
  }
  draft.meta = mergeMeta(draft.meta, input.meta);
  if (messages.length > 0) throw new Invalid(messages);
  return updateEvent(principal, current, draft, V4_FIELDS);
}
