// The stored event (api-v4.md "Event", api-earlier.md "Event"): one record behind both interfaces.
// Instants are ISO strings in UTC with milliseconds; `time_zone` is kept exactly as the client sent
// it (a friendly name or an IANA name) and resolved to IANA only when the engine needs it.
import type { FrequencyUnit, OncallEvent } from '../oncall/types';
import { resolveTimeZone } from '../oncall/time-zones';

export const FREQUENCY_UNITS: FrequencyUnit[] = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'];

export interface EventAttendeeRecord {
  id: string;
  /** Account user ULID. */
  attendee_id: string;
  attendee_type: 'AccountUser';
  position: number;
  /** The account user's person: the earlier interface names attendees by `usr_` id. An account user
   * belongs to one person for life, so this copy never goes stale. */
  user_id: string;
  /** Periods the account user was deactivated by the account's identity provider (SCIM): their turns
   * then go to the others (lib/oncall/oncall-spans.ts); `until` null while it lasts. */
  inactive?: { from: string; until: string | null }[];
}

export interface EventExceptionRecord {
  id: string;
  start_datetime: string;
}

/** When and how an event repeats, on which layer: the fields a draft (lib/events/drafts.ts) and the
 * stored record share. */
export interface EventRepetition {
  layer: number;
  time_zone: string;
  repeat: boolean;
  frequency: number | null;
  frequency_unit: FrequencyUnit | null;
  days_of_week: number[];
  rotation: boolean;
  parent_id: string | null;
}

export interface EventRecord extends EventRepetition {
  id: string;
  account_id: string;
  tiny_id: number;
  version: number;
  start_datetime: string;
  end_datetime: string;
  repeat_end_datetime: string | null;
  schedule_ids: string[];
  event_attendees: EventAttendeeRecord[];
  exceptions: EventExceptionRecord[];
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** The IANA zone an event's wall clock follows (stored names were validated on write). */
export function ianaZoneOf(record: Pick<EventRecord, 'time_zone'>): string {
  return resolveTimeZone(record.time_zone) ?? 'UTC';
}

/** The engine's view of a stored event. */
export function toOncallEvent(record: EventRecord): OncallEvent {
  return {
    id: record.id,
    layer: record.layer,
    start: Date.parse(record.start_datetime),
    end: Date.parse(record.end_datetime),
    timeZone: ianaZoneOf(record),
    repeat: record.repeat,
    frequency: record.frequency,
    frequencyUnit: record.frequency_unit,
    daysOfWeek: record.days_of_week.length > 0 ? record.days_of_week : null,
    repeatEnd: record.repeat_end_datetime ? Date.parse(record.repeat_end_datetime) : null,
    rotation: record.rotation,
    attendees: record.event_attendees.map((a) =>
      a.inactive?.length
        ? {
            attendeeId: a.attendee_id,
            position: a.position,
            inactive: a.inactive.map((p) => [Date.parse(p.from), p.until ? Date.parse(p.until) : Infinity] as const),
          }
        : { attendeeId: a.attendee_id, position: a.position },
    ),
    exceptions: record.exceptions.map((e) => Date.parse(e.start_datetime)),
    parentId: record.parent_id,
  };
}
