// Benchmark of the on-call engine: a year of window_events over a busy schedule, and the cost of an
// old event against a new one over the same window (expansion must not walk from the start).
import { runWhenMain } from './support';
import { expandOccurrences, spansInWindow } from '../lib/oncall';
import type { FrequencyUnit, OncallEvent } from '../lib/oncall';
import { seededRandom } from '../test/support/seeded-random';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW_FROM = Date.UTC(2025, 0, 1);
const WINDOW_TO = Date.UTC(2026, 0, 1);
const ZONES = ['Europe/Berlin', 'America/Los_Angeles', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'];

// Fixed seed: every run measures the same schedule.

function attendees(count: number, prefix: string) {
  return Array.from({ length: count }, (_, position) => ({ attendeeId: `${prefix}-user-${position}`, position }));
}

interface Shape {
  unit: FrequencyUnit;
  frequency: number;
  length: number;
  daysOfWeek?: number[];
}

const SHAPES: Shape[] = [
  { unit: 'hourly', frequency: 1, length: HOUR },
  { unit: 'hourly', frequency: 4, length: 4 * HOUR },
  { unit: 'hourly', frequency: 8, length: 8 * HOUR },
  { unit: 'hourly', frequency: 12, length: 12 * HOUR },
  { unit: 'daily', frequency: 1, length: DAY },
  { unit: 'daily', frequency: 1, length: 8 * HOUR, daysOfWeek: [1, 2, 3, 4, 5] },
  { unit: 'daily', frequency: 2, length: 2 * DAY },
  { unit: 'weekly', frequency: 1, length: 7 * DAY },
  { unit: 'weekly', frequency: 2, length: 10 * HOUR, daysOfWeek: [1, 3, 5] },
  { unit: 'monthly', frequency: 1, length: 3 * DAY },
];

export function busySchedule(): OncallEvent[] {
  const random = seededRandom(42);
  const events: OncallEvent[] = [];
  for (let n = 0; n < 50; n++) {
    const shape = SHAPES[n % SHAPES.length];
    // Starts spread over 2024 at whole hours, some on the 31st for monthly skipping.
    const start = Date.UTC(2024, Math.floor(random() * 12), 1 + Math.floor(random() * 28), Math.floor(random() * 24));
    events.push({
      id: `evt-${n}`,
      layer: 1 + (n % 3),
      start,
      end: start + shape.length,
      timeZone: ZONES[n % ZONES.length],
      repeat: true,
      frequency: shape.frequency,
      frequencyUnit: shape.unit,
      daysOfWeek: shape.daysOfWeek ?? null,
      repeatEnd: null,
      rotation: n % 2 === 0,
      attendees: attendees(1 + (n % 4), `evt-${n}`),
      exceptions: [],
      parentId: null,
    });
  }
  // 100 exceptions on real occurrences inside the window.
  for (let n = 0; n < 100; n++) {
    const event = events[Math.floor(random() * events.length)];
    const probe = WINDOW_FROM + Math.floor(random() * 360) * DAY;
    const [occurrence] = expandOccurrences(event, probe, probe + 14 * DAY);
    if (occurrence) event.exceptions.push(occurrence.start);
  }
  // 100 overrides of a few hours, most on their parent's layer so that they cut it.
  for (let n = 0; n < 100; n++) {
    const parent = events[Math.floor(random() * events.length)];
    const start = WINDOW_FROM + Math.floor(random() * 364 * 24) * HOUR;
    events.push({
      id: `ovr-${n}`,
      layer: n % 5 === 0 ? parent.layer + 1 : parent.layer,
      start,
      end: start + (1 + Math.floor(random() * 48)) * HOUR,
      timeZone: parent.timeZone,
      repeat: false,
      rotation: false,
      attendees: attendees(1, `ovr-${n}`),
      exceptions: [],
      parentId: parent.id,
    });
  }
  return events;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function timeMs(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

function agedEvents(start: number): OncallEvent[] {
  return SHAPES.map((shape, n) => ({
    id: `aged-${n}`,
    layer: 1,
    start,
    end: start + shape.length,
    timeZone: ZONES[n % ZONES.length],
    repeat: true,
    frequency: shape.frequency,
    frequencyUnit: shape.unit,
    daysOfWeek: shape.daysOfWeek ?? null,
    repeatEnd: null,
    rotation: true,
    attendees: attendees(3, `aged-${n}`),
    exceptions: [],
    parentId: null,
  }));
}

export function benchOncallEngine(): Record<string, number | string> {
  const schedule = busySchedule();
  const spanCount = spansInWindow(schedule, WINDOW_FROM, WINDOW_TO).length;
  for (let n = 0; n < 3; n++) spansInWindow(schedule, WINDOW_FROM, WINDOW_TO);
  const yearRuns: number[] = [];
  for (let n = 0; n < 15; n++) yearRuns.push(timeMs(() => spansInWindow(schedule, WINDOW_FROM, WINDOW_TO)));

  // Same shapes, same window; only the age differs. Runs alternate so drift hits both alike.
  const oldEvents = agedEvents(Date.UTC(2015, 0, 1, 9));
  const newEvents = agedEvents(Date.UTC(2024, 11, 1, 9));
  for (let n = 0; n < 3; n++) {
    spansInWindow(oldEvents, WINDOW_FROM, WINDOW_TO);
    spansInWindow(newEvents, WINDOW_FROM, WINDOW_TO);
  }
  const oldRuns: number[] = [];
  const newRuns: number[] = [];
  const repeated = (events: OncallEvent[]) => () => {
    for (let n = 0; n < 5; n++) spansInWindow(events, WINDOW_FROM, WINDOW_TO);
  };
  for (let n = 0; n < 25; n++) {
    // Alternating who goes first keeps a collection triggered by one from always billing the other.
    if (n % 2 === 0) {
      oldRuns.push(timeMs(repeated(oldEvents)) / 5);
      newRuns.push(timeMs(repeated(newEvents)) / 5);
    } else {
      newRuns.push(timeMs(repeated(newEvents)) / 5);
      oldRuns.push(timeMs(repeated(oldEvents)) / 5);
    }
  }
  const oldMs = median(oldRuns);
  const newMs = median(newRuns);

  return {
    'oncall.year_window.events': schedule.length,
    'oncall.year_window.spans': spanCount,
    'oncall.year_window.median_ms': Number(median(yearRuns).toFixed(2)),
    'oncall.year_window.target_ms': 50,
    'oncall.age.began_10_years_ago_ms': Number(oldMs.toFixed(3)),
    'oncall.age.began_last_month_ms': Number(newMs.toFixed(3)),
    'oncall.age.ratio': Number((oldMs / newMs).toFixed(3)),
    'oncall.age.target_ratio': 1.5,
  };
}

runWhenMain(import.meta.url, benchOncallEngine);
