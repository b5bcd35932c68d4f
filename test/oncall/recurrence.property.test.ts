import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oncallAt, spansInWindow } from '../../lib/oncall/oncall-spans';
import { expandOccurrences } from '../../lib/oncall/recurrence';
import type { OncallEvent, Occurrence } from '../../lib/oncall/types';
import { DAY } from './event-builder';
import { referenceOccurrences, referenceOncallAt, referenceSpans } from './naive-reference';
import { buildEvent, eventShapeArb, scheduleArb, windowArb } from './schedule-arbitraries';
import type { Window } from './schedule-arbitraries';

function referenceExpansion(event: OncallEvent, window: Window): Occurrence[] {
  return referenceOccurrences(event, window.to)
    .filter((occurrence) => !occurrence.removed && occurrence.end > window.from)
    .map(({ eventId, index, start, end }) => ({ eventId, index, start, end }));
}

function attendeeIdFor(event: OncallEvent, index: number): string {
  const ordered = [...event.attendees].sort((a, b) => a.position - b.position);
  return ordered[index % ordered.length].attendeeId;
}

describe('the engine against a naive walk from the start', () => {
  it('expands every event exactly like the naive walk', () => {
    fc.assert(
      fc.property(scheduleArb, ({ window, events }) => {
        for (const event of events) {
          expect(expandOccurrences(event, window.from, window.to)).toEqual(referenceExpansion(event, window));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('lists exactly the naive on-call entries, overrides and order included', () => {
    fc.assert(
      fc.property(scheduleArb, ({ window, events }) => {
        expect(spansInWindow(events, window.from, window.to)).toEqual(referenceSpans(events, window.from, window.to));
      }),
      { numRuns: 150 },
    );
  });

  it('numbers occurrences of events that began years ago like the naive walk', () => {
    const oldScheduleArb = fc.record({
      window: windowArb,
      shape: eventShapeArb,
      yearsBefore: fc.integer({ min: 3, max: 10 }),
    });
    fc.assert(
      fc.property(oldScheduleArb, ({ window, shape, yearsBefore }) => {
        const event = buildEvent({ ...shape, startDaysBefore: 0 }, 'old', window);
        const shift = yearsBefore * 365 * DAY;
        const old = { ...event, start: event.start - shift, end: event.end - shift, repeatEnd: null, exceptions: [] };

        expect(expandOccurrences(old, window.from, window.to)).toEqual(referenceExpansion(old, window));
      }),
      { numRuns: 30 },
    );
  });
  it('numbers month-end monthly and yearly repeats like the naive walk', () => {
    const monthEndArb = fc.record({
      window: windowArb,
      extraDays: fc.integer({ min: 30, max: 400 }),
      shape: eventShapeArb,
      unit: fc.constantFrom('monthly' as const, 'yearly' as const),
      frequency: fc.integer({ min: 1, max: 5 }),
      dayOfMonth: fc.constantFrom(29, 30, 31),
      startDaysBefore: fc.integer({ min: 0, max: 3000 }),
    });
    fc.assert(
      fc.property(monthEndArb, ({ window, extraDays, shape, unit, frequency, dayOfMonth, startDaysBefore }) => {
        const longWindow = { from: window.from, to: window.to + extraDays * DAY };
        const event = buildEvent({ ...shape, unit, frequency, dayOfMonth, startDaysBefore, repeatEndPick: null }, 'month-end', longWindow);

        expect(expandOccurrences(event, longWindow.from, longWindow.to)).toEqual(referenceExpansion(event, longWindow));
      }),
      { numRuns: 100 },
    );
  });
});

describe('invariants of the on-call entries', () => {
  it('expands [a, b) as the union of [a, m) and [m, b)', () => {
    fc.assert(
      fc.property(scheduleArb, fc.double({ min: 0, max: 1, noNaN: true }), ({ window, events }, split) => {
        const middle = window.from + Math.floor((window.to - window.from) * split);
        for (const event of events) {
          const whole = expandOccurrences(event, window.from, window.to);
          const byStart = new Map<number, Occurrence>();
          for (const occurrence of [...expandOccurrences(event, window.from, middle), ...expandOccurrences(event, middle, window.to)]) {
            byStart.set(occurrence.start, occurrence);
          }
          const union = [...byStart.values()].sort((a, b) => a.start - b.start || a.index - b.index);

          expect(union).toEqual(whole);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps every entry within an occurrence of its event, with attendee k mod n for rotations', () => {
    fc.assert(
      fc.property(scheduleArb, ({ window, events }) => {
        const spans = spansInWindow(events, window.from, window.to);
        for (const span of spans) {
          const event = events.find((candidate) => candidate.id === span.eventId)!;
          const containing = expandOccurrences(event, span.start, span.end).filter(
            (candidate) => candidate.start <= span.start && span.end <= candidate.end,
          );
          const exact = containing.find((candidate) => candidate.start === span.start && candidate.end === span.end);
          const attendeeIds = span.attendees.map((attendee) => attendee.attendeeId);

          expect(containing.length).toBeGreaterThan(0);
          if (!event.rotation) expect(attendeeIds).toHaveLength(event.attendees.length);
          else if (exact) expect(attendeeIds).toEqual([attendeeIdFor(event, exact.index)]);
          // A piece of one of several overlapping occurrences belongs to one of them.
          else expect(containing.map((candidate) => attendeeIdFor(event, candidate.index))).toContain(attendeeIds[0]);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('puts on call at any instant exactly the attendees the definition gives', () => {
    fc.assert(
      fc.property(
        scheduleArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        ({ window, events }, fractions) => {
          // Entry boundaries are where mistakes hide; probe them as well as random instants.
          const boundaries = spansInWindow(events, window.from, window.to).flatMap((span) => [span.start, span.end - 1]);
          const probes = [
            ...fractions.map((fraction) => window.from + Math.floor((window.to - window.from) * fraction)),
            ...boundaries.slice(0, 6),
          ];
          for (const probe of probes) {
            const seats = oncallAt(events, probe)
              .flatMap((span) => span.attendees.map((attendee) => `${span.eventId}:${attendee.attendeeId}`))
              .sort();

            expect(seats).toEqual(referenceOncallAt(events, probe));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
