// Who is on call (docs/api.md#who-is-on-call): a schedule's events through the on-call engine. window_events and
// current_oncall answer one entry per on-call span, with its real bounds (not clipped), and each
// attendee's name and primary e-mail beside its id (one BatchGet of the account users per answer).
import { now as clockNow } from '../clock';
import type * as z from 'zod';
import { getAccountUsers } from '../account-users/store';
import type { Principal } from '../http/principal';
import { parseDateTimeIn } from '../oncall/datetime-inputs';
import { toOncallEvent } from '../events/records';
import { listEventsOfSchedule } from '../events/store';
import { Invalid } from '../http/errors';
import { oncallAt, spansInWindow } from '../oncall/oncall-spans';
import type { OncallEvent, OncallSpan } from '../oncall/types';
import { findSchedule } from './read-schedules';
import type { OncallEntries } from './schemas';

const DAY_MS = 86_400_000;
export const MAX_WINDOW_DAYS = 366;

/** One on-call span as current_oncall and window_events answer it (its schema: ./schemas.ts). */
export type OncallEntry = z.input<typeof OncallEntries>[number];
export type OncallAttendee = OncallEntry['attendees'][number];

type Person = Pick<OncallAttendee, 'name' | 'email'>;

function entryOf(span: OncallSpan, people: Map<string, Person>): OncallEntry {
  return {
    event_id: span.eventId,
    layer: span.layer,
    start_time: new Date(span.start).toISOString(),
    end_time: new Date(span.end).toISOString(),
    attendees: span.attendees.map((a) => ({
      attendee_id: a.attendeeId,
      attendee_type: a.attendeeType,
      position: a.position,
      ...(people.get(a.attendeeId) ?? { name: null, email: null }),
    })),
  };
}

/** The answer of current_oncall and window_events: the spans with their attendees' names and
 * primary e-mails, read in one BatchGet (per 100 people) whatever the number of spans. */
export async function oncallEntries(accountId: string, spans: OncallSpan[]): Promise<OncallEntry[]> {
  const ids = [...new Set(spans.flatMap((span) => span.attendees.map((a) => a.attendeeId)))];
  const people = new Map<string, Person>();
  for (const accountUser of await getAccountUsers(accountId, ids)) {
    const emails = accountUser.user.emails ?? [];
    const primary = emails.find((e) => e.primary) ?? emails[0];
    people.set(accountUser.id, { name: accountUser.user.name ?? null, email: primary?.email ?? null });
  }
  return spans.map((span) => entryOf(span, people));
}

/** A schedule's events as the on-call engine reads them. */
export async function scheduleOncallEvents(accountId: string, scheduleId: string): Promise<OncallEvent[]> {
  return (await listEventsOfSchedule(accountId, scheduleId)).map(toOncallEvent);
}

/** On-call spans of a schedule overlapping [from, to), sorted by start then layer. */
export async function scheduleSpans(accountId: string, scheduleId: string, from: number, to: number): Promise<OncallSpan[]> {
  return spansInWindow(await scheduleOncallEvents(accountId, scheduleId), from, to);
}

/** On-call spans of a schedule in force at `at` (routing uses this too). */
export async function scheduleOncallAt(accountId: string, scheduleId: string, at: number): Promise<OncallSpan[]> {
  const events = (await listEventsOfSchedule(accountId, scheduleId)).map(toOncallEvent);
  return oncallAt(events, at);
}

export async function currentOncall(principal: Principal, rawId: string, now = clockNow()): Promise<OncallEntry[]> {
  const schedule = await findSchedule(principal, rawId);
  return oncallEntries(principal.accountId, await scheduleOncallAt(principal.accountId, schedule.id, now));
}

/** A query's offset `+02:00` arrives as ` 02:00` when the client did not encode its `+`. */
const DECODED_PLUS = /(T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/;

/** A window bound: `YYYY-MM-DD HH:mm:ss` in UTC (api-v4.md), or any ISO 8601 datetime (an offset, or
 * none: UTC). */
export function parseWindowBound(raw: string): number | null {
  return parseDateTimeIn(raw.trim().replace(DECODED_PLUS, '$1+$2'), 'UTC');
}

function windowBound(params: URLSearchParams, name: 'start' | 'end', messages: string[]): number | null {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') {
    messages.push(`${name} can't be blank`);
    return null;
  }
  const instant = parseWindowBound(raw);
  if (instant === null) messages.push(`${name} must be a UTC time of the form YYYY-MM-DD HH:mm:ss, or an ISO 8601 datetime`);
  return instant;
}

/** The window [start, end) of a query (window_events, coverage): both bounds present and readable, end after
 * start, at most `maxDays` long; else an Invalid naming the fields at fault. */
export function parseWindow(params: URLSearchParams, maxDays: number): { start: number; end: number } {
  const messages: string[] = [];
  const start = windowBound(params, 'start', messages);
  const end = windowBound(params, 'end', messages);
  if (start !== null && end !== null) {
    if (end <= start) messages.push('end must be after start');
    else if (end - start > maxDays * DAY_MS) messages.push(`the window from start to end must not be longer than ${maxDays} days`);
  }
  if (messages.length > 0) throw new Invalid(messages);
  return { start: start!, end: end! };
}

export async function windowEvents(principal: Principal, rawId: string, params: URLSearchParams): Promise<OncallEntry[]> {
  const schedule = await findSchedule(principal, rawId);
  const { start, end } = parseWindow(params, MAX_WINDOW_DAYS);
  return oncallEntries(principal.accountId, await scheduleSpans(principal.accountId, schedule.id, start, end));
}
