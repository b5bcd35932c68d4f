// Shapes the recurrence engine works on. Inputs are already validated by the API layer;
// every instant is epoch milliseconds. Zones are IANA names; a friendly name (see time-zones.ts)
// is resolved too, because time_zone is stored as the client gave it.

export type FrequencyUnit = 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly';

export interface OncallEventAttendee {
  attendeeId: string;
  position: number;
  /** [from, until) periods in which the person is deactivated (SCIM `active: false`; until may be
   * Infinity): their turns then go as if they were not in the event, and turns before stay theirs. */
  inactive?: readonly (readonly [number, number])[];
}

export interface OncallEvent {
  id: string;
  layer: number;
  /** First occurrence is [start, end). */
  start: number;
  end: number;
  /** Zone whose wall clock the repetition follows. */
  timeZone: string;
  repeat: boolean;
  frequency?: number | null;
  frequencyUnit?: FrequencyUnit | null;
  /** 0 = Sunday … 6 = Saturday. */
  daysOfWeek?: number[] | null;
  /** Inclusive: an occurrence that starts after it does not exist. */
  repeatEnd?: number | null;
  rotation: boolean;
  attendees: OncallEventAttendee[];
  /** Starts of removed occurrences. */
  exceptions: number[];
  /** Set on override children. */
  parentId?: string | null;
}

export interface Occurrence {
  eventId: string;
  /** Occurrence number counted from the first (0); rotation hands occurrence k to attendee k mod n. */
  index: number;
  start: number;
  end: number;
}

export interface OncallSpanAttendee {
  attendeeId: string;
  attendeeType: 'AccountUser';
  position: number;
}

export interface OncallSpan {
  eventId: string;
  layer: number;
  start: number;
  end: number;
  attendees: OncallSpanAttendee[];
}
