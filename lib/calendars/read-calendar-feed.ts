// GET /public/calendars/<token>.ics (contract §14): the on-call spans of a schedule, or of one person
// on every schedule, from 7 days ago to 90 days ahead, as iCalendar. The spans are window_events'
// own (lib/schedules/read-oncall.ts over the on-call engine), so overrides and removed occurrences
// are in the feed exactly as there.
import { getAccountUser } from '../account-users/store';
import { sha256 } from '../auth/passwords';
import { now } from '../clock';
import { NotFound } from '../http/errors';
import type { OncallSpan } from '../oncall/types';
import { oncallEntries, scheduleSpans, type OncallEntry } from '../schedules/read-oncall';
import type { ScheduleRecord } from '../schedules/records';
import { getSchedule, listAllSchedules } from '../schedules/store';
import { formatICalendar, utcDateTime, type CalendarEntry } from './icalendar/format-icalendar';
import type { CalendarFeedRecord } from './records';
import { getCalendarFeed } from './store';

const DAY_MS = 86_400_000;
export const FEED_PAST_DAYS = 7;
export const FEED_FUTURE_DAYS = 90;
const PRODUCT_ID = '-//On-call service//Calendar feed//EN';

/** A token as create-calendar-feed.ts makes them (43 base64url characters), then `.ics`. */
const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

// One answer for every way an address can fail, so a guess learns nothing.
const notFound = () => new NotFound('Calendar not found');

export interface CalendarFeed {
  /** What the file is called in the client's list. */
  name: string;
  body: string;
}

/** A schedule's spans, each attendee's part kept when `only` says so. */
async function spansOf(accountId: string, schedule: ScheduleRecord, from: number, to: number, only?: string) {
  const spans = await scheduleSpans(accountId, schedule.id, from, to);
  if (only === undefined) return spans;
  return spans.flatMap((span): OncallSpan[] => {
    const attendees = span.attendees.filter((a) => a.attendeeId === only);
    return attendees.length > 0 ? [{ ...span, attendees }] : [];
  });
}

/** One VEVENT per span and attendee; the UID follows from schedule, layer, person and start, so a
 * client that fetches again updates its events instead of adding copies. */
function entriesOf(schedule: ScheduleRecord, entries: readonly OncallEntry[], uids: Set<string>): CalendarEntry[] {
  const out: CalendarEntry[] = [];
  for (const entry of entries) {
    const start = Date.parse(entry.start_time);
    const end = Date.parse(entry.end_time);
    const seen = new Set<string>();
    for (const attendee of entry.attendees) {
      if (seen.has(attendee.attendee_id)) continue;
      seen.add(attendee.attendee_id);
      let uid = `${schedule.id}-L${entry.layer}-${attendee.attendee_id}-${utcDateTime(start)}@oncall`;
      // Two events of one layer giving the same person a span at the same start: the event tells them apart.
      if (uids.has(uid)) uid = uid.replace(/@oncall$/, `-${entry.event_id}@oncall`);
      uids.add(uid);
      const person = attendee.name ?? attendee.email ?? attendee.attendee_id;
      out.push({
        uid,
        start,
        end,
        summary: `On call: ${person} (layer ${entry.layer}, ${schedule.name})`,
        description: `Schedule: ${schedule.name}\nLayer: ${entry.layer}\nPerson: ${person}`,
      });
    }
  }
  return out;
}

async function scheduleFeed(feed: CalendarFeedRecord, from: number, to: number, stamp: number): Promise<CalendarFeed> {
  const schedule = await getSchedule(feed.account_id, feed.owner_id);
  if (!schedule) throw notFound();
  const entries = await oncallEntries(feed.account_id, await spansOf(feed.account_id, schedule, from, to));
  const name = `On call: ${schedule.name}`;
  return { name, body: formatICalendar({ productId: PRODUCT_ID, name, stamp, entries: entriesOf(schedule, entries, new Set()) }) };
}

async function personFeed(feed: CalendarFeedRecord, from: number, to: number, stamp: number): Promise<CalendarFeed> {
  const [person, schedules] = await Promise.all([getAccountUser(feed.account_id, feed.owner_id), listAllSchedules(feed.account_id)]);
  if (!person) throw notFound();
  const read = await Promise.all(schedules.map((schedule) => spansOf(feed.account_id, schedule, from, to, person.id)));
  // An event on several schedules is one shift: it is shown once, under the first schedule that has it.
  const shown = new Set<string>();
  const perSchedule = read.map((spans) =>
    spans.filter((span) => {
      const key = `${span.eventId} ${span.start} ${span.end}`;
      if (shown.has(key)) return false;
      shown.add(key);
      return true;
    }),
  );
  // One read of the person's name for every schedule's spans.
  const named = await oncallEntries(feed.account_id, perSchedule.flat());
  const uids = new Set<string>();
  const events: CalendarEntry[] = [];
  let at = 0;
  schedules.forEach((schedule, i) => {
    events.push(...entriesOf(schedule, named.slice(at, at + perSchedule[i].length), uids));
    at += perSchedule[i].length;
  });
  events.sort((a, b) => a.start - b.start);
  const name = `On call: ${person.user.name ?? 'my shifts'}`;
  return { name, body: formatICalendar({ productId: PRODUCT_ID, name, stamp, entries: events }) };
}

export async function readCalendarFeed(file: string): Promise<CalendarFeed> {
  const token = FEED_FILE.exec(file)?.[1];
  if (!token) throw notFound();
  const feed = await getCalendarFeed(sha256(token));
  if (!feed) throw notFound();
  const stamp = now();
  const from = stamp - FEED_PAST_DAYS * DAY_MS;
  const to = stamp + FEED_FUTURE_DAYS * DAY_MS;
  return feed.scope === 'schedule' ? scheduleFeed(feed, from, to, stamp) : personFeed(feed, from, to, stamp);
}
