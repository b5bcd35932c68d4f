// Our engine over translated events before anything is written: a dry run's proof, and the
// translation's own fallback to explicit shifts (translate-schedule.ts).
import { spansInWindow, type OncallEvent } from '../oncall';
import type { OnCallSpan } from './source-model';
import { spansFromPeriods } from './spans';

/** One event to write, in engine terms (epoch ms), people still named by their source ids. */
export interface EventSpec {
  /** Stable across runs for the same source data: the apply step finds last run's event by it. */
  key: string;
  /** The key of the event this one overrides (an override child), if any. */
  parentKey?: string;
  layer: number;
  /** The first occurrence, [start, end). */
  start: number;
  end: number;
  timeZone: string;
  /** Null: a single occurrence. `until` is the last occurrence's start (inclusive), null = no end. */
  repeat: { unit: 'hourly' | 'daily'; frequency: number; until: number | null } | null;
  /** True: occurrence k → userSourceIds[k mod n]; false: every one of them on call together. */
  rotation: boolean;
  userSourceIds: string[];
  /** The source layer the event comes from (for layer-specific overrides). */
  sourceLayerId?: string;
}

/** Our on-call over [from, to) as spans of source user ids, from the events of a schedule. */
export function ourSpans(
  events: readonly OncallEvent[],
  sourceIdOf: (attendeeId: string) => string,
  from: number,
  to: number,
): OnCallSpan[] {
  const periods = spansInWindow(
    events.filter((event) => event.layer === 1),
    from,
    to,
  ).flatMap((span) =>
    span.attendees.map((attendee) => ({
      start: Math.max(span.start, from),
      end: Math.min(span.end, to),
      userSourceId: sourceIdOf(attendee.attendeeId),
    })),
  );
  return spansFromPeriods(periods, from, to);
}

/** Engine events straight from a translation (a dry run proves the plan before anything is written). */
export function eventsOfSpecs(specs: readonly EventSpec[]): OncallEvent[] {
  return specs.map((spec) => ({
    id: spec.key,
    layer: spec.layer,
    start: spec.start,
    end: spec.end,
    timeZone: spec.timeZone,
    repeat: spec.repeat !== null,
    frequency: spec.repeat?.frequency ?? null,
    frequencyUnit: spec.repeat?.unit ?? null,
    daysOfWeek: [],
    repeatEnd: spec.repeat?.until ?? null,
    rotation: spec.rotation,
    attendees: spec.userSourceIds.map((id, position) => ({ attendeeId: id, position })),
    exceptions: [],
    parentId: spec.parentKey ?? null,
  }));
}
