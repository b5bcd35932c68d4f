// Coverage of a window (GET /api/v4/schedules/:id/coverage, contract §14): per layer, the maximal
// intervals in which nobody is on call, and per person and layer, their on-call time and spans. It
// reads the spans spansInWindow gives, so it agrees with window_events by construction.
import type { OncallSpan } from './types';

export interface CoverageInterval {
  start: number;
  end: number;
}

export interface LayerCoverage {
  layer: number;
  gaps: CoverageInterval[];
  coveredMs: number;
}

export interface PersonCoverage {
  attendeeId: string;
  layer: number;
  /** Their own on-call time within the window: overlapping spans of theirs count once. */
  onCallMs: number;
  /** Spans of theirs that overlap the window, each counted whole. */
  spans: number;
  /** Their on-call time within the window as disjoint intervals, oldest first. */
  onCall: CoverageInterval[];
}

export interface Coverage {
  layers: LayerCoverage[];
  people: PersonCoverage[];
}

/** Sorted disjoint union of intervals (touching ones joined: a hand-off leaves no gap). */
function union(intervals: CoverageInterval[]): CoverageInterval[] {
  intervals.sort((a, b) => a.start - b.start);
  const merged: CoverageInterval[] = [];
  for (const { start, end } of intervals) {
    const last = merged[merged.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged;
}

const lengthOf = (intervals: readonly CoverageInterval[]) => intervals.reduce((sum, i) => sum + (i.end - i.start), 0);

/**
 * The coverage of [from, to) given the spans that overlap it (unclipped, as spansInWindow answers)
 * and the layers the schedule has events on. Layer 1 is always listed; a span without attendees
 * (an event nobody attends) covers nothing.
 */
export function coverageOf(spans: readonly OncallSpan[], scheduleLayers: Iterable<number>, from: number, to: number): Coverage {
  const covered = new Map<number, CoverageInterval[]>([[1, []]]);
  for (const layer of scheduleLayers) if (!covered.has(layer)) covered.set(layer, []);
  const byPerson = new Map<string, { attendeeId: string; layer: number; intervals: CoverageInterval[]; spans: number }>();

  for (const span of spans) {
    const start = Math.max(span.start, from);
    const end = Math.min(span.end, to);
    if (end <= start || span.attendees.length === 0) continue;
    let layerIntervals = covered.get(span.layer);
    if (!layerIntervals) covered.set(span.layer, (layerIntervals = []));
    layerIntervals.push({ start, end });
    // An attendee listed twice on one span is still one person on call once.
    for (const attendeeId of new Set(span.attendees.map((a) => a.attendeeId))) {
      const key = `${span.layer} ${attendeeId}`;
      let person = byPerson.get(key);
      if (!person) byPerson.set(key, (person = { attendeeId, layer: span.layer, intervals: [], spans: 0 }));
      person.intervals.push({ start, end });
      person.spans += 1;
    }
  }

  const layers: LayerCoverage[] = [...covered.entries()]
    .sort(([a], [b]) => a - b)
    .map(([layer, intervals]) => {
      const onCall = union(intervals);
      const gaps: CoverageInterval[] = [];
      let cursor = from;
      for (const interval of onCall) {
        if (interval.start > cursor) gaps.push({ start: cursor, end: interval.start });
        cursor = Math.max(cursor, interval.end);
      }
      if (cursor < to) gaps.push({ start: cursor, end: to });
      return { layer, gaps, coveredMs: lengthOf(onCall) };
    });

  const people: PersonCoverage[] = [...byPerson.values()]
    .map(({ attendeeId, layer, intervals, spans: count }) => {
      const onCall = union(intervals);
      return { attendeeId, layer, onCallMs: lengthOf(onCall), spans: count, onCall };
    })
    .sort(
      (a, b) => a.layer - b.layer || b.onCallMs - a.onCallMs || (a.attendeeId < b.attendeeId ? -1 : a.attendeeId > b.attendeeId ? 1 : 0),
    );

  return { layers, people };
}
