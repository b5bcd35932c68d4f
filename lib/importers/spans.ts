// People on call as contiguous spans: periods that overlap (several rotations, an override beside
// a rotation) become one span per stretch in which the set of people stays the same.
import type { OnCallSpan } from './source-model';

export interface Period {
  start: number;
  end: number;
  userSourceId: string;
}

/** Spans covering [from, to) without gaps (nobody = an empty list), neighbours with the same people merged. */
export function spansFromPeriods(periods: readonly Period[], from: number, to: number): OnCallSpan[] {
  const cuts = new Set<number>([from, to]);
  for (const period of periods) {
    if (period.start > from && period.start < to) cuts.add(period.start);
    if (period.end > from && period.end < to) cuts.add(period.end);
  }
  const instants = [...cuts].sort((a, b) => a - b);
  const spans: OnCallSpan[] = [];
  for (let i = 0; i + 1 < instants.length; i++) {
    const [start, end] = [instants[i], instants[i + 1]];
    const people = [...new Set(periods.filter((p) => p.start <= start && p.end >= end).map((p) => p.userSourceId))].sort();
    const last = spans[spans.length - 1];
    if (last && last.userSourceIds.join() === people.join()) last.end = new Date(end).toISOString();
    else spans.push({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), userSourceIds: people });
  }
  return spans;
}
