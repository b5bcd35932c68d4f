// Who is on call (contract §7): a schedule's events through the on-call engine. window_events and
// current_oncall answer one entry per on-call span, with its real bounds (not clipped).
import type { Principal } from '../http/principal';
import { parseUtcDateTime } from '../events/datetimes';
import { toOncallEvent } from '../events/records';
import { listEventsOfSchedule } from '../events/store';
import { Invalid } from '../http/errors';
import { oncallAt, spansInWindow } from '../oncall/oncall-spans';
import type { OncallSpan } from '../oncall/types';
import { findSchedule } from './read-schedules';

const DAY_MS = 86_400_000;
export const MAX_WINDOW_DAYS = 366;

export interface OncallEntry {
  event_id: string;
  layer: number;
  start_time: string;
  end_time: string;
  attendees: { attendee_id: string; attendee_type: 'AccountUser'; position: number }[];
}

export function entryOf(span: OncallSpan): OncallEntry {
  return {
    event_id: span.eventId,
    layer: span.layer,
    start_time: new Date(span.start).toISOString(),
    end_time: new Date(span.end).toISOString(),
    attendees: span.attendees.map((a) => ({ attendee_id: a.attendeeId, attendee_type: a.attendeeType, position: a.position })),
  };
}

/** On-call spans of a schedule overlapping [from, to), sorted by start then layer. */
export async function scheduleSpans(accountId: string, scheduleId: string, from: number, to: number): Promise<OncallSpan[]> {
  const events = (await listEventsOfSchedule(accountId, scheduleId)).map(toOncallEvent);
  return spansInWindow(events, from, to);
}

/** On-call spans of a schedule in force at `at` (routing uses this too). */
export async function scheduleOncallAt(accountId: string, scheduleId: string, at: number): Promise<OncallSpan[]> {
  const events = (await listEventsOfSchedule(accountId, scheduleId)).map(toOncallEvent);
  return oncallAt(events, at);
}

export async function currentOncall(principal: Principal, rawId: string, now = Date.now()): Promise<OncallEntry[]> {
  const schedule = await findSchedule(principal, rawId);
  return (await scheduleOncallAt(principal.accountId, schedule.id, now)).map(entryOf);
}

function windowBound(params: URLSearchParams, name: 'start' | 'end', messages: string[]): number | null {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') {
    messages.push(`${name} can't be blank`);
    return null;
  }
  const instant = parseUtcDateTime(raw);
  if (instant === null) messages.push(`${name} must be a UTC time of the form YYYY-MM-DD HH:mm:ss`);
  return instant;
}

export async function windowEvents(principal: Principal, rawId: string, params: URLSearchParams): Promise<OncallEntry[]> {
  const schedule = await findSchedule(principal, rawId);
  const messages: string[] = [];
  const start = windowBound(params, 'start', messages);
  const end = windowBound(params, 'end', messages);
  if (start !== null && end !== null) {
    if (end <= start) messages.push('end must be after start');
    else if (end - start > MAX_WINDOW_DAYS * DAY_MS)
      messages.push(`the window from start to end must not be longer than ${MAX_WINDOW_DAYS} days`);
  }
  if (messages.length > 0) throw new Invalid(messages);
  return (await scheduleSpans(principal.accountId, schedule.id, start!, end!)).map(entryOf);
}
