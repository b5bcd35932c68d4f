// The interface-neutral state of an event being written. Both interfaces turn their input into a
// draft (their own field names travel along, so messages name the field the client sent), the
// rules below check it, and the draft becomes the stored record.
import { newId } from '../ids';
import { findOccurrenceStartingAt } from '../oncall/recurrence';
import type { FrequencyUnit } from '../oncall/types';
import { withoutNulls } from '../http/changes';
import type { AttendeeRef } from './attendees';
import { isoOf } from './datetimes';
import { toOncallEvent, type EventAttendeeRecord, type EventRecord, type EventRepetition } from './records';

export interface EventFieldNames {
  start: string;
  end: string;
  layer: string;
  timeZone: string;
  frequency: string;
  frequencyUnit: string;
  daysOfWeek: string;
  repeatEnd: string;
  scheduleIds: string;
  attendees: string;
  exceptions: string;
  parentId: string;
}

export const V4_FIELDS: EventFieldNames = {
  start: 'start_datetime',
  end: 'end_datetime',
  layer: 'layer',
  timeZone: 'time_zone',
  frequency: 'frequency',
  frequencyUnit: 'frequency_unit',
  daysOfWeek: 'days_of_week',
  repeatEnd: 'repeat_end_datetime',
  scheduleIds: 'schedule_ids',
  attendees: 'account_user_ids',
  exceptions: 'exceptions',
  parentId: 'parent_id',
};

export const EARLIER_FIELDS: EventFieldNames = {
  start: 'start',
  end: 'end',
  layer: 'layer',
  timeZone: 'timezone',
  frequency: 'frequency',
  frequencyUnit: 'frequency_unit',
  daysOfWeek: 'dow',
  repeatEnd: 'repeatend',
  scheduleIds: 'schedule_id',
  attendees: 'attendees',
  exceptions: 'exceptions',
  parentId: 'parent_id',
};

export interface EventDraft extends EventRepetition {
  start: number;
  end: number;
  repeat_end: number | null;
  schedule_ids: string[];
  attendees: AttendeeRef[];
  exceptions: number[];
  meta: Record<string, unknown>;
}

/** The repeat and layer fields both interfaces send under the same names (days of week aside). */
export interface RepeatFields {
  layer?: number;
  repeat?: boolean;
  frequency?: number | null;
  frequency_unit?: string | null;
  days_of_week?: number[] | null;
  rotation?: boolean;
}

/** A new draft: the fields sent, and the defaults of what was not. */
export function newDraft(
  fields: RepeatFields & { layer: number; meta?: Record<string, unknown> },
  rest: Pick<EventDraft, 'start' | 'end' | 'time_zone' | 'repeat_end' | 'parent_id' | 'schedule_ids' | 'attendees' | 'exceptions'>,
): EventDraft {
  return {
    start: rest.start,
    end: rest.end,
    layer: fields.layer,
    time_zone: rest.time_zone,
    repeat: fields.repeat ?? false,
    frequency: fields.frequency ?? null,
    frequency_unit: (fields.frequency_unit as FrequencyUnit | null | undefined) ?? null,
    days_of_week: fields.days_of_week ?? [],
    repeat_end: rest.repeat_end,
    rotation: fields.rotation ?? false,
    parent_id: rest.parent_id,
    schedule_ids: rest.schedule_ids,
    attendees: rest.attendees,
    exceptions: rest.exceptions,
    meta: withoutNulls(fields.meta),
  };
}

/** An update's repeat and layer fields: only those sent change. */
export function applyRepeatFields(draft: EventDraft, fields: RepeatFields): void {
  if (fields.layer !== undefined) draft.layer = fields.layer;
  if (fields.repeat !== undefined) draft.repeat = fields.repeat;
  if (fields.frequency !== undefined) draft.frequency = fields.frequency;
  if (fields.frequency_unit !== undefined) draft.frequency_unit = fields.frequency_unit as FrequencyUnit | null;
  if (fields.days_of_week !== undefined) draft.days_of_week = fields.days_of_week ?? [];
  if (fields.rotation !== undefined) draft.rotation = fields.rotation;
}

export function draftOf(record: EventRecord): EventDraft {
  return {
    start: Date.parse(record.start_datetime),
    end: Date.parse(record.end_datetime),
    layer: record.layer,
    time_zone: record.time_zone,
    repeat: record.repeat,
    frequency: record.frequency,
    frequency_unit: record.frequency_unit,
    days_of_week: [...record.days_of_week],
    repeat_end: record.repeat_end_datetime ? Date.parse(record.repeat_end_datetime) : null,
    rotation: record.rotation,
    parent_id: record.parent_id,
    schedule_ids: [...record.schedule_ids],
    attendees: record.event_attendees.map((a) => ({ attendee_id: a.attendee_id, user_id: a.user_id })),
    exceptions: record.exceptions.map((e) => Date.parse(e.start_datetime)),
    meta: { ...record.meta },
  };
}

// Instants far outside any calendar a person keeps are refused: the engine works in epoch ms
// and Date cannot print beyond ±275 000 years.
const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);

/** Cross-field rules; returns every message (empty when the draft is sound). */
export function checkDraft(draft: EventDraft, names: EventFieldNames): string[] {
  const messages: string[] = [];
  for (const [field, value] of [
    [names.start, draft.start],
    [names.end, draft.end],
  ] as const) {
    if (value < EARLIEST || value > LATEST) messages.push(`${field} must be between the years 1900 and 9999`);
  }
  if (!(draft.end > draft.start)) messages.push(`${names.end} must be after ${names.start}`);
  if (!Number.isInteger(draft.layer) || draft.layer < 1) messages.push(`${names.layer} must be at least 1`);
  if (draft.repeat) {
    if (draft.frequency === null || draft.frequency === undefined) messages.push(`${names.frequency} can't be blank when repeat is true`);
    else if (!Number.isInteger(draft.frequency) || draft.frequency < 1) messages.push(`${names.frequency} must be at least 1`);
    if (!draft.frequency_unit) messages.push(`${names.frequencyUnit} can't be blank when repeat is true`);
    if (draft.repeat_end !== null && draft.repeat_end < draft.start) {
      messages.push(`${names.repeatEnd} must not be before ${names.start}`);
    }
  } else if (draft.frequency !== null && draft.frequency !== undefined && draft.frequency < 1) {
    messages.push(`${names.frequency} must be at least 1`);
  }
  if (draft.attendees.length === 0) messages.push(`${names.attendees} must have at least 1 entry`);
  return messages;
}

interface RecordBase {
  id: string;
  account_id: string;
  tiny_id: number;
  version: number;
  created_at: string;
  updated_at: string;
}

/** An attendee's inactive periods: those they keep from the event as it was, else their current
 * deactivation's (a person deactivated before they were named takes no turns from then on). */
function inactiveOf(attendee: AttendeeRef, kept: EventAttendeeRecord['inactive']): Partial<Pick<EventAttendeeRecord, 'inactive'>> {
  if (kept?.length) return { inactive: kept };
  return attendee.deactivated_at ? { inactive: [{ from: attendee.deactivated_at, until: null }] } : {};
}

export function recordFromDraft(draft: EventDraft, base: RecordBase, previous?: EventRecord): EventRecord {
  // Attendee and exception ids stay the same for entries that stay.
  const attendeeIds = new Map(previous?.event_attendees.map((a) => [a.attendee_id, a.id]) ?? []);
  // A deactivation stays with an attendee who stays: an edit of the event must not put them back on call.
  const deactivations = new Map(previous?.event_attendees.filter((a) => a.inactive?.length).map((a) => [a.attendee_id, a.inactive]) ?? []);
  const exceptionIds = new Map(previous?.exceptions.map((e) => [Date.parse(e.start_datetime), e.id]) ?? []);
  return {
    ...base,
    start_datetime: isoOf(draft.start),
    end_datetime: isoOf(draft.end),
    layer: draft.layer,
    time_zone: draft.time_zone,
    repeat: draft.repeat,
    frequency: draft.frequency ?? null,
    frequency_unit: draft.frequency_unit ?? null,
    days_of_week: [...new Set(draft.days_of_week)].sort((a, b) => a - b),
    repeat_end_datetime: draft.repeat_end === null ? null : isoOf(draft.repeat_end),
    rotation: draft.rotation,
    parent_id: draft.parent_id,
    schedule_ids: [...new Set(draft.schedule_ids)],
    event_attendees: draft.attendees.map((attendee, position) => ({
      id: attendeeIds.get(attendee.attendee_id) ?? newId(),
      attendee_id: attendee.attendee_id,
      attendee_type: 'AccountUser',
      position,
      user_id: attendee.user_id,
      ...inactiveOf(attendee, deactivations.get(attendee.attendee_id)),
    })),
    exceptions: [...new Set(draft.exceptions)]
      .sort((a, b) => a - b)
      .map((start) => ({ id: exceptionIds.get(start) ?? newId(), start_datetime: isoOf(start) })),
    meta: draft.meta,
  };
}

/** Exceptions must each name the start of an occurrence of the event as drafted. */
export function checkExceptions(record: EventRecord, names: EventFieldNames): string[] {
  const event = toOncallEvent(record);
  return record.exceptions
    .filter((e) => !findOccurrenceStartingAt(event, Date.parse(e.start_datetime), { includeRemoved: true }))
    .map((e) => `${names.exceptions} contains ${e.start_datetime}, which starts no occurrence of the event`);
}
