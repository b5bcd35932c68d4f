// The proof of an import: for every imported schedule, who is on call here (our engine over the
// schedule's layer-1 events, docs/api.md#who-is-on-call) against who the source itself renders, over a
// window. Both sides are step functions, constant between their hand-offs, so comparing them at
// every hand-off instant of either side compares them everywhere.
import type { OncallEvent } from '../oncall';
import type { ImportSource, OnCallSpan } from './source-model';
import { ourSpans } from './spec-engine';

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
