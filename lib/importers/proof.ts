// The proof of an import: for every imported schedule, who is on call here (our engine over the
// schedule's layer-1 events, docs/api.md#who-is-on-call) against who the source itself renders, over a
// window. Both sides are step functions, constant between their hand-offs, so comparing them at
// every hand-off instant of either side compares them everywhere.
import { spansInWindow, type OncallEvent } from '../oncall';
import type { ImportSource, OnCallSpan } from './source-model';
import { spansFromPeriods } from './spans';
import type { EventSpec } from './translate-schedule';

export interface OnCallDifference {
  start: string;
  end: string;
  /** Source user ids on call here (an account user that came from no source user: `ours:<id>`). */
  ours: string[];
  theirs: string[];
}

export interface ScheduleProof {
  scheduleSourceId: string;
  name: string;
  from: string;
  to: string;
  /** Hand-off instants compared (both sides' span boundaries in the window). */
  handOffs: number;
  differences: OnCallDifference[];
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

function peopleAt(spans: readonly OnCallSpan[], at: number): string[] {
  const span = spans.find((s) => Date.parse(s.start) <= at && at < Date.parse(s.end));
  return span ? span.userSourceIds : [];
}

/** Compares two renderings of the same window; differences merged where they run on. */
export function compareSpans(
  ours: readonly OnCallSpan[],
  theirs: readonly OnCallSpan[],
  from: number,
  to: number,
): { handOffs: number; differences: OnCallDifference[] } {
  const instants = new Set<number>([from]);
  for (const span of [...ours, ...theirs]) {
    for (const at of [Date.parse(span.start), Date.parse(span.end)]) if (at > from && at < to) instants.add(at);
  }
  const sorted = [...instants].sort((a, b) => a - b);
  const differences: OnCallDifference[] = [];
  sorted.forEach((at, i) => {
    const end = sorted[i + 1] ?? to;
    const here = peopleAt(ours, at);
    const there = peopleAt(theirs, at);
    if (here.join() === there.join()) return;
    const last = differences[differences.length - 1];
    if (last && Date.parse(last.end) === at && last.ours.join() === here.join() && last.theirs.join() === there.join()) {
      last.end = new Date(end).toISOString();
    } else {
      differences.push({ start: new Date(at).toISOString(), end: new Date(end).toISOString(), ours: here, theirs: there });
    }
  });
  return { handOffs: sorted.length, differences };
}

export async function proveSchedule(
  source: ImportSource,
  schedule: { sourceId: string; name: string },
  events: readonly OncallEvent[],
  sourceIdOf: (attendeeId: string) => string,
  from: number,
  to: number,
): Promise<ScheduleProof> {
  const theirs = await source.renderedOnCall(schedule.sourceId, new Date(from).toISOString(), new Date(to).toISOString());
  const ours = ourSpans(events, sourceIdOf, from, to);
  const { handOffs, differences } = compareSpans(ours, theirs, from, to);
  return {
    scheduleSourceId: schedule.sourceId,
    name: schedule.name,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    handOffs,
    differences,
  };
}
