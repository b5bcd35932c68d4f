// Random schedules for the property tests: windows around clock changes in five zones, events of
// every unit, repeat ends and exceptions taken from real occurrences, overrides near the window.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { FrequencyUnit, OncallEvent } from '../../lib/oncall/types';
import { DAY, HOUR } from './event-builder';
import { referenceOccurrences } from './naive-reference';

const MINUTE = 60_000;
const ZONES = ['Europe/Berlin', 'America/Los_Angeles', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'];

// Days near the US, EU and Australian clock changes, so that most windows contain one.
const CHANGE_DAYS = [2021, 2022, 2023, 2024, 2025, 2026, 2027].flatMap((year) => [
  Date.UTC(year, 2, 10),
  Date.UTC(year, 2, 28),
  Date.UTC(year, 3, 4),
  Date.UTC(year, 9, 3),
  Date.UTC(year, 9, 28),
  Date.UTC(year, 10, 3),
]);

export interface Window {
  from: number;
  to: number;
}

export const windowArb: fc.Arbitrary<Window> = fc
  .record({
    changeDay: fc.constantFrom(...CHANGE_DAYS),
    shiftMinutes: fc.integer({ min: -12 * 24 * 60, max: 4 * 24 * 60 }),
    lengthMinutes: fc.oneof(fc.integer({ min: 1, max: 36 * 60 }), fc.integer({ min: 1, max: 40 * 24 * 60 })),
  })
  .map(({ changeDay, shiftMinutes, lengthMinutes }) => {
    const from = changeDay + shiftMinutes * MINUTE;
    return { from, to: from + lengthMinutes * MINUTE };
  });

type Unit = FrequencyUnit | 'once';

export const eventShapeArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  unit: fc.constantFrom<Unit>('hourly', 'daily', 'daily', 'weekly', 'weekly', 'monthly', 'yearly', 'once'),
  frequency: fc.integer({ min: 1, max: 3 }),
  hourlyFrequency: fc.integer({ min: 1, max: 30 }),
  startDaysBefore: fc.integer({ min: -20, max: 400 }),
  // Month ends are where monthly and yearly dates stop existing.
  dayOfMonth: fc.option(fc.constantFrom(29, 30, 31), { nil: null }),
  // Early hours are over-represented: that is where the clocks change.
  localHour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(1, 2, 3)),
  localMinute: fc.constantFrom(0, 15, 30, 45),
  lengthKind: fc.constantFrom('short', 'period', 'long'),
  lengthMinutes: fc.integer({ min: 15, max: 72 * 60 }),
  daysOfWeek: fc.option(fc.subarray([0, 1, 2, 3, 4, 5, 6], { minLength: 1 }), { nil: null }),
  repeatEndPick: fc.option(fc.record({ pick: fc.nat(), justBefore: fc.boolean() }), { nil: null }),
  rotation: fc.boolean(),
  positions: fc.uniqueArray(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 4 }),
  layer: fc.integer({ min: 1, max: 2 }),
  exceptionPicks: fc.array(fc.nat(), { maxLength: 3 }),
});

export type EventShape = typeof eventShapeArb extends fc.Arbitrary<infer T> ? T : never;

const overrideShapeArb = fc.record({
  parentPick: fc.nat(),
  startMinutes: fc.integer({ min: -2 * 24 * 60, max: 40 * 24 * 60 }),
  lengthMinutes: fc.integer({ min: 30, max: 3 * 24 * 60 }),
  sameLayer: fc.boolean(),
});

function periodMs(unit: Unit, frequency: number): number {
  switch (unit) {
    case 'hourly':
      return frequency * HOUR;
    case 'daily':
      return frequency * DAY;
    case 'weekly':
      return 7 * frequency * DAY;
    case 'monthly':
      return 28 * DAY;
    default:
      return DAY;
  }
}

export function buildEvent(shape: EventShape, id: string, window: Window): OncallEvent {
  const frequency = shape.unit === 'hourly' ? shape.hourlyFrequency : shape.frequency;
  // The naive reference walks every hourly occurrence; keep hourly starts recent.
  const daysBefore = shape.unit === 'hourly' ? Math.min(shape.startDaysBefore, 60) : shape.startDaysBefore;
  const near = DateTime.fromMillis(window.from - daysBefore * DAY, { zone: 'utc' });
  const day = shape.dayOfMonth && shape.dayOfMonth <= (near.daysInMonth ?? 28) ? near.set({ day: shape.dayOfMonth }) : near;
  const start = DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour: shape.localHour, minute: shape.localMinute },
    { zone: shape.zone },
  ).toMillis();
  const length =
    shape.lengthKind === 'period'
      ? periodMs(shape.unit, frequency)
      : shape.lengthKind === 'short'
        ? ((shape.lengthMinutes % (12 * 60)) + 15) * MINUTE
        : shape.lengthMinutes * MINUTE;
  const repeating = shape.unit !== 'once';
  const event: OncallEvent = {
    id,
    layer: shape.layer,
    start,
    end: start + length,
    timeZone: shape.zone,
    repeat: repeating,
    frequency: repeating ? frequency : null,
    frequencyUnit: repeating ? (shape.unit as FrequencyUnit) : null,
    daysOfWeek: shape.daysOfWeek,
    repeatEnd: null,
    rotation: shape.rotation,
    attendees: shape.positions.map((position, n) => ({ attendeeId: `${id}-usr-${n}`, position })),
    exceptions: [],
    parentId: null,
  };
  // Repeat ends and exceptions are taken from real occurrence starts so that they matter.
  const candidates = referenceOccurrences(event, window.to + 2 * DAY);
  if (shape.repeatEndPick && candidates.length > 0) {
    const chosen = candidates[shape.repeatEndPick.pick % candidates.length];
    event.repeatEnd = chosen.start - (shape.repeatEndPick.justBefore ? 1 : 0);
  }
  const nearWindow = candidates.filter((occurrence) => occurrence.end > window.from - 2 * DAY);
  const pool = nearWindow.length > 0 ? nearWindow : candidates;
  if (pool.length > 0) event.exceptions = [...new Set(shape.exceptionPicks.map((pick) => pool[pick % pool.length].start))];
  return event;
}

export const scheduleArb = fc
  .record({
    window: windowArb,
    shapes: fc.array(eventShapeArb, { minLength: 1, maxLength: 4 }),
    overrides: fc.array(overrideShapeArb, { maxLength: 3 }),
  })
  .map(({ window, shapes, overrides }) => {
    const events = shapes.map((shape, n) => buildEvent(shape, `evt-${n}`, window));
    overrides.forEach((override, n) => {
      const parent = events[override.parentPick % shapes.length];
      const start = window.from + override.startMinutes * MINUTE;
      events.push({
        id: `ovr-${n}`,
        layer: override.sameLayer ? parent.layer : parent.layer + 1,
        start,
        end: start + override.lengthMinutes * MINUTE,
        timeZone: parent.timeZone,
        repeat: false,
        rotation: false,
        attendees: [{ attendeeId: `ovr-${n}-usr`, position: 0 }],
        exceptions: [],
        parentId: parent.id,
      });
    });
    return { window, events };
  });
