// A deliberately naive model of docs/api.md#on-call for the property tests: it walks every candidate from the
// event's first start with luxon, one at a time, and resolves wall-clock times by trying offsets.
// It shares no code with lib/oncall, so agreement between the two means something.
import { DateTime, IANAZone } from 'luxon';
import type { OncallEvent, OncallSpan } from '../../lib/oncall/types';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface ReferenceOccurrence {
  eventId: string;
  index: number;
  start: number;
  end: number;
  removed: boolean;
}

function offsetMs(zone: string, utc: number): number {
  return Math.round(IANAZone.create(zone).offset(utc) * 60_000);
}

/** Wall clock (as UTC-based ms) → instant: first of two readings; in a gap, the offset before it. */
export function referenceLocalToUtc(zone: string, wall: number): number {
  const before = offsetMs(zone, wall - 36 * HOUR);
  const after = offsetMs(zone, wall + 36 * HOUR);
  const candidates = [before, after].filter((offset) => offsetMs(zone, wall - offset) === offset).map((offset) => wall - offset);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before;
}

function wallOf(zone: string, utc: number): DateTime {
  const local = DateTime.fromMillis(utc, { zone });
  return DateTime.fromObject(
    {
      year: local.year,
      month: local.month,
      day: local.day,
      hour: local.hour,
      minute: local.minute,
      second: local.second,
      millisecond: local.millisecond,
    },
    { zone: 'utc' },
  );
}

/** Every occurrence (removed ones flagged) starting before `until`, walked from the first. */
export function referenceOccurrences(event: OncallEvent, until: number): ReferenceOccurrence[] {
  const found: ReferenceOccurrence[] = [];
  const exceptions = new Set(event.exceptions);
  const add = (index: number, start: number, end: number) =>
    found.push({ eventId: event.id, index, start, end, removed: exceptions.has(start) });
  const elapsed = event.end - event.start;
  const frequency = event.frequency ?? 0;
  if (!event.repeat || !event.frequencyUnit || frequency < 1) {
    if (event.start < until) add(0, event.start, event.end);
    return found;
  }
  const repeatEnd = event.repeatEnd ?? Number.POSITIVE_INFINITY;

  if (event.frequencyUnit === 'hourly') {
    for (let index = 0; ; index++) {
      const start = event.start + index * frequency * HOUR;
      if (start >= until || start > repeatEnd) break;
      add(index, start, start + elapsed);
    }
    return found;
  }

  const zone = event.timeZone;
  const wallStart = wallOf(zone, event.start);
  const wallLength = wallOf(zone, event.end).toMillis() - wallStart.toMillis();
  const timeOfDay = wallStart.toMillis() - wallStart.startOf('day').toMillis();
  const firstDay = wallStart.startOf('day');
  const days = event.daysOfWeek && event.daysOfWeek.length > 0 ? new Set(event.daysOfWeek) : null;
  const weekdayOf = (day: DateTime) => day.weekday % 7;

  let index = 0;
  // Returns false once the occurrence starts too late.
  const take = (day: DateTime): boolean => {
    let start: number;
    let end: number;
    if (index === 0) {
      start = event.start;
      end = event.end;
    } else {
      const wall = day.toMillis() + timeOfDay;
      start = referenceLocalToUtc(zone, wall);
      end = referenceLocalToUtc(zone, wall + wallLength);
      if (end <= start) end = start + elapsed;
    }
    if (start >= until || start > repeatEnd) return false;
    add(index, start, end);
    index++;
    return true;
  };

  const sunday = firstDay.minus({ days: weekdayOf(firstDay) });
  for (let candidate = 0; ; candidate++) {
    let day: DateTime;
    let listed = true;
    switch (event.frequencyUnit) {
      case 'daily':
        day = firstDay.plus({ days: candidate * frequency });
        listed = candidate === 0 || !days || days.has(weekdayOf(day));
        break;
      case 'weekly':
        if (!days) {
          day = firstDay.plus({ weeks: candidate * frequency });
          break;
        }
        day = firstDay.plus({ days: candidate });
        if (candidate > 0) {
          const week = Math.floor(Math.round(day.diff(sunday, 'days').days) / 7);
          listed = week % frequency === 0 && days.has(weekdayOf(day));
        }
        break;
      case 'monthly':
      case 'yearly': {
        const months = (event.frequencyUnit === 'monthly' ? 1 : 12) * candidate * frequency;
        const month = firstDay.startOf('month').plus({ months });
        listed = firstDay.day <= (month.daysInMonth ?? 31);
        day = listed ? month.set({ day: firstDay.day }) : month;
        break;
      }
      default:
        return found;
    }
    // Candidates that never match must not loop forever.
    if (day.toMillis() > until + 2 * DAY) return found;
    if (listed && !take(day)) return found;
  }
}

function attendeesFor(event: OncallEvent, index: number): OncallSpan['attendees'] {
  const ordered = [...event.attendees]
    .sort((a, b) => a.position - b.position)
    .map((attendee) => ({ attendeeId: attendee.attendeeId, attendeeType: 'AccountUser' as const, position: attendee.position }));
  if (!event.rotation || ordered.length === 0) return ordered;
  return [ordered[index % ordered.length]];
}

/** The contract's entries for [from, to), computed the slow way. */
export function referenceSpans(events: OncallEvent[], from: number, to: number): OncallSpan[] {
  const spans: OncallSpan[] = [];
  for (const event of events) {
    // Occurrences are not clipped, so any occurrence starting before the window end may matter.
    const occurrences = referenceOccurrences(event, to);
    const latestEnd = Math.max(0, ...occurrences.map((occurrence) => occurrence.end));
    const cuts = events
      .filter((child) => child.parentId === event.id && child.layer === event.layer)
      .flatMap((child) => referenceOccurrences(child, latestEnd).filter((occurrence) => !occurrence.removed));
    for (const occurrence of occurrences) {
      if (occurrence.removed) continue;
      let pieces: [number, number][] = [[occurrence.start, occurrence.end]];
      for (const cut of cuts) {
        pieces = pieces.flatMap(([start, end]) => {
          if (cut.end <= start || cut.start >= end) return [[start, end] as [number, number]];
          const left: [number, number][] = cut.start > start ? [[start, cut.start]] : [];
          const right: [number, number][] = cut.end < end ? [[cut.end, end]] : [];
          return [...left, ...right];
        });
      }
      pieces.sort((a, b) => a[0] - b[0]);
      for (const [start, end] of pieces) {
        if (start < to && end > from) {
          spans.push({ eventId: event.id, layer: event.layer, start, end, attendees: attendeesFor(event, occurrence.index) });
        }
      }
    }
  }
  return spans.sort((a, b) => a.start - b.start || a.layer - b.layer);
}

/** Who the definition puts on call at `at`: event id and attendee id pairs, one per attendee seat. */
export function referenceOncallAt(events: OncallEvent[], at: number): string[] {
  const seats: string[] = [];
  for (const event of events) {
    const cutNow = events.some(
      (child) =>
        child.parentId === event.id &&
        child.layer === event.layer &&
        referenceOccurrences(child, at + 1).some((o) => !o.removed && o.start <= at && at < o.end),
    );
    if (cutNow) continue;
    for (const occurrence of referenceOccurrences(event, at + 1)) {
      if (occurrence.removed || occurrence.start > at || at >= occurrence.end) continue;
      for (const attendee of attendeesFor(event, occurrence.index)) seats.push(`${event.id}:${attendee.attendeeId}`);
    }
  }
  return seats.sort();
}
