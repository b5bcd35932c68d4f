// How a person's on-call time falls on their own clock (the schedule page's fairness table,
// docs/api.md#fairness): of their on-call intervals, the part at night (22:00–07:00 on their wall
// clock, the same night as the page reports count) and the part on a weekend (their Saturday and
// Sunday). Exact across offset changes: the intervals are cut at every local 00:00, 07:00 and 22:00
// and at every offset transition, and each piece is classified by its first instant.
import { DAY_MS, HOUR_MS, mod, weekdayOfDay } from './civil-calendar';
import { zoneOffsets } from './zone-offsets';

export const NIGHT_STARTS_HOUR = 22;
export const NIGHT_ENDS_HOUR = 7;

export interface LocalSplit {
  nightMs: number;
  weekendMs: number;
}

/** The wall-clock hours at which the classification can change, ascending. */
const CUTS_MS = [0, NIGHT_ENDS_HOUR * HOUR_MS, NIGHT_STARTS_HOUR * HOUR_MS, DAY_MS];

/**
 * Night and weekend time of disjoint intervals (epoch ms) on the wall clock of `zone` (an IANA name
 * the caller resolved). Intervals may be in any order.
 */
export function nightAndWeekend(intervals: readonly { start: number; end: number }[], zone: string): LocalSplit {
  const offsets = zoneOffsets(zone);
  const split: LocalSplit = { nightMs: 0, weekendMs: 0 };
  for (const { start, end } of intervals) {
    let cursor = start;
    while (cursor < end) {
      const offset = offsets.offsetAt(cursor);
      const local = cursor + offset;
      const intoDay = mod(local, DAY_MS);
      const nextCut = CUTS_MS.find((cut) => cut > intoDay)!;
      // The next wall-clock cut under the current offset, or the offset's own change if sooner: a
      // piece never spans a transition, so one offset reads all of it.
      let pieceEnd = Math.min(end, cursor + (nextCut - intoDay));
      const transition = offsets.transitionsBetween(cursor + 1, pieceEnd)[0];
      if (transition) pieceEnd = transition.at;
      const length = pieceEnd - cursor;
      const hour = intoDay / HOUR_MS;
      if (hour >= NIGHT_STARTS_HOUR || hour < NIGHT_ENDS_HOUR) split.nightMs += length;
      const weekday = weekdayOfDay(Math.floor(local / DAY_MS));
      if (weekday === 0 || weekday === 6) split.weekendMs += length;
      cursor = pieceEnd;
    }
  }
  return split;
}
