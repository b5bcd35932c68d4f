import { describe, expect, it } from 'vitest';
import { oncallAt, spansInWindow } from '../../lib/oncall/oncall-spans';
import type { OncallEvent, OncallSpan } from '../../lib/oncall/types';
import { at, iso, rotationOf, someEvent } from './event-builder';

function summary(spans: OncallSpan[]): string[] {
  return spans.map(
    (span) =>
      `${span.eventId} L${span.layer} ${iso(span.start).slice(5, 16)}–${iso(span.end).slice(5, 16)} ${span.attendees
        .map((attendee) => attendee.attendeeId)
        .join('+')}`,
  );
}

const weekdayShift = someEvent({
  id: 'parent',
  start: at('2024-01-01T09:00:00Z'),
  end: at('2024-01-01T17:00:00Z'),
  repeat: true,
  frequency: 1,
  frequencyUnit: 'daily',
  attendees: [{ attendeeId: 'usr-a', position: 0 }],
});

function overrideOf(parent: OncallEvent, start: string, end: string, layer = parent.layer): OncallEvent {
  return someEvent({
    id: `override-${start}`,
    parentId: parent.id,
    layer,
    start: at(start),
    end: at(end),
    attendees: [{ attendeeId: 'usr-z', position: 0 }],
  });
}

describe('overrides', () => {
  it('cut a parent occurrence in the middle into two pieces around the override entry', () => {
    const lunch = overrideOf(weekdayShift, '2024-01-02T12:00:00Z', '2024-01-02T13:00:00Z');

    const spans = spansInWindow([weekdayShift, lunch], at('2024-01-02T00:00:00Z'), at('2024-01-03T00:00:00Z'));

    expect(summary(spans)).toEqual([
      'parent L1 01-02T09:00–01-02T12:00 usr-a',
      'override-2024-01-02T12:00:00Z L1 01-02T12:00–01-02T13:00 usr-z',
      'parent L1 01-02T13:00–01-02T17:00 usr-a',
    ]);
  });

  it('cut every occurrence they cover, leaving the outer pieces with their real bounds', () => {
    const overnight = overrideOf(weekdayShift, '2024-01-02T15:00:00Z', '2024-01-03T11:00:00Z');

    const spans = spansInWindow([weekdayShift, overnight], at('2024-01-02T00:00:00Z'), at('2024-01-04T00:00:00Z'));

    expect(summary(spans)).toEqual([
      'parent L1 01-02T09:00–01-02T15:00 usr-a',
      'override-2024-01-02T15:00:00Z L1 01-02T15:00–01-03T11:00 usr-z',
      'parent L1 01-03T11:00–01-03T17:00 usr-a',
    ]);
  });

  it('leave the parent alone when they sit on another layer', () => {
    const elsewhere = overrideOf(weekdayShift, '2024-01-02T12:00:00Z', '2024-01-02T13:00:00Z', 2);

    const spans = spansInWindow([weekdayShift, elsewhere], at('2024-01-02T00:00:00Z'), at('2024-01-03T00:00:00Z'));

    expect(summary(spans)).toEqual([
      'parent L1 01-02T09:00–01-02T17:00 usr-a',
      'override-2024-01-02T12:00:00Z L2 01-02T12:00–01-02T13:00 usr-z',
    ]);
  });

  it('remove the whole occurrence when they cover it entirely', () => {
    const allDay = overrideOf(weekdayShift, '2024-01-02T08:00:00Z', '2024-01-02T18:00:00Z');

    const spans = spansInWindow([weekdayShift, allDay], at('2024-01-02T00:00:00Z'), at('2024-01-03T00:00:00Z'));

    expect(summary(spans)).toEqual(['override-2024-01-02T08:00:00Z L1 01-02T08:00–01-02T18:00 usr-z']);
  });

  it('leave pieces that keep the rotation attendee of their occurrence', () => {
    const rotation = { ...weekdayShift, ...rotationOf('usr-a', 'usr-b') };
    const lunch = overrideOf(rotation, '2024-01-02T12:00:00Z', '2024-01-02T13:00:00Z');

    const spans = spansInWindow([rotation, lunch], at('2024-01-02T00:00:00Z'), at('2024-01-03T00:00:00Z'));

    expect(summary(spans)).toEqual([
      'parent L1 01-02T09:00–01-02T12:00 usr-b',
      'override-2024-01-02T12:00:00Z L1 01-02T12:00–01-02T13:00 usr-z',
      'parent L1 01-02T13:00–01-02T17:00 usr-b',
    ]);
  });
});

describe('window entries', () => {
  it('are not clipped to the window', () => {
    const lunch = overrideOf(weekdayShift, '2024-01-02T12:00:00Z', '2024-01-02T13:00:00Z');

    const spans = spansInWindow([weekdayShift, lunch], at('2024-01-02T10:00:00Z'), at('2024-01-02T10:30:00Z'));

    expect(summary(spans)).toEqual(['parent L1 01-02T09:00–01-02T12:00 usr-a']);
  });

  it('give one entry per event when events share a layer and a time', () => {
    const colleague = { ...weekdayShift, id: 'colleague', attendees: [{ attendeeId: 'usr-b', position: 0 }] };

    const spans = spansInWindow([weekdayShift, colleague], at('2024-01-02T00:00:00Z'), at('2024-01-03T00:00:00Z'));

    expect(summary(spans)).toEqual(['parent L1 01-02T09:00–01-02T17:00 usr-a', 'colleague L1 01-02T09:00–01-02T17:00 usr-b']);
  });

  it('are sorted by start, then layer', () => {
    const early = someEvent({ id: 'early', layer: 3, start: at('2024-01-02T08:00:00Z'), end: at('2024-01-02T20:00:00Z') });
    const sameStartLowerLayer = someEvent({ id: 'low', layer: 0, start: at('2024-01-02T09:00:00Z'), end: at('2024-01-02T10:00:00Z') });

    const spans = spansInWindow([weekdayShift, early, sameStartLowerLayer], at('2024-01-02T00:00:00Z'), at('2024-01-03T00:00:00Z'));

    expect(spans.map((span) => span.eventId)).toEqual(['early', 'low', 'parent']);
  });

  it('put every attendee of a non-rotation event on call at once, in position order', () => {
    const team = {
      ...weekdayShift,
      attendees: [
        { attendeeId: 'usr-c', position: 2 },
        { attendeeId: 'usr-a', position: 0 },
        { attendeeId: 'usr-b', position: 1 },
      ],
    };

    const [span] = spansInWindow([team], at('2024-01-02T10:00:00Z'), at('2024-01-02T11:00:00Z'));

    expect(span.attendees).toEqual([
      { attendeeId: 'usr-a', attendeeType: 'AccountUser', position: 0 },
      { attendeeId: 'usr-b', attendeeType: 'AccountUser', position: 1 },
      { attendeeId: 'usr-c', attendeeType: 'AccountUser', position: 2 },
    ]);
  });

  it('are empty for an empty or inverted window', () => {
    expect(spansInWindow([weekdayShift], at('2024-01-02T10:00:00Z'), at('2024-01-02T10:00:00Z'))).toEqual([]);
    expect(spansInWindow([weekdayShift], at('2024-01-03T10:00:00Z'), at('2024-01-02T10:00:00Z'))).toEqual([]);
  });
});

describe('on call at an instant', () => {
  const handOver = someEvent({
    id: 'round-the-clock',
    timeZone: 'Europe/Berlin',
    start: at('2024-03-29T08:00:00Z'),
    end: at('2024-03-30T08:00:00Z'),
    repeat: true,
    frequency: 1,
    frequencyUnit: 'daily',
    ...rotationOf('usr-a', 'usr-b'),
  });

  it('includes an entry from its first instant and excludes it at its end', () => {
    const handOffInstant = at('2024-03-31T07:00:00Z'); // 09:00 CEST, the day the clocks change

    const entries = oncallAt([handOver], handOffInstant);

    expect(summary(entries)).toEqual(['round-the-clock L1 03-31T07:00–04-01T07:00 usr-a']);
  });

  it('adds up the attendees of every event in force, overrides included', () => {
    const colleague = { ...weekdayShift, id: 'colleague', attendees: [{ attendeeId: 'usr-b', position: 0 }] };
    const lunch = overrideOf(weekdayShift, '2024-01-02T12:00:00Z', '2024-01-02T13:00:00Z');

    const entries = oncallAt([weekdayShift, colleague, lunch], at('2024-01-02T12:30:00Z'));

    expect(entries.flatMap((entry) => entry.attendees.map((attendee) => attendee.attendeeId)).sort()).toEqual(['usr-b', 'usr-z']);
  });

  it('finds nobody between shifts', () => {
    expect(oncallAt([weekdayShift], at('2024-01-02T20:00:00Z'))).toEqual([]);
  });
});

describe('deactivated attendees', () => {
  const daily = someEvent({
    id: 'rota',
    start: at('2024-03-01T00:00:00Z'),
    end: at('2024-03-02T00:00:00Z'),
    repeat: true,
    frequency: 1,
    frequencyUnit: 'daily',
    rotation: true,
    attendees: [
      { attendeeId: 'a', position: 0 },
      { attendeeId: 'b', position: 1, inactive: [[at('2024-03-04T12:00:00Z'), at('2024-03-06T00:00:00Z')]] },
      { attendeeId: 'c', position: 2 },
    ],
  });

  it('keep their turns before the deactivation, and the others rotate without them until it ends', () => {
    expect(summary(spansInWindow([daily], at('2024-03-01T00:00:00Z'), at('2024-03-08T00:00:00Z')))).toEqual([
      'rota L1 03-01T00:00–03-02T00:00 a',
      'rota L1 03-02T00:00–03-03T00:00 b',
      'rota L1 03-03T00:00–03-04T00:00 c',
      'rota L1 03-04T00:00–03-04T12:00 a',
      // Occurrence 3 from noon, and 4: the k mod 2-th of a and c.
      'rota L1 03-04T12:00–03-05T00:00 c',
      'rota L1 03-05T00:00–03-06T00:00 a',
      // Active again: occurrence k to the k mod 3-th, as before.
      'rota L1 03-06T00:00–03-07T00:00 c',
      'rota L1 03-07T00:00–03-08T00:00 a',
    ]);
    expect(oncallAt([daily], at('2024-03-04T13:00:00Z'))[0].attendees.map((x) => x.attendeeId)).toEqual(['c']);
  });

  it('leave a shared shift to the others, and nobody on call when nobody is left', () => {
    const shared = someEvent({
      start: at('2024-03-01T09:00:00Z'),
      end: at('2024-03-01T17:00:00Z'),
      attendees: [
        { attendeeId: 'a', position: 0, inactive: [[at('2024-03-01T12:00:00Z'), Infinity]] },
        { attendeeId: 'b', position: 1, inactive: [[at('2024-03-01T15:00:00Z'), Infinity]] },
      ],
    });
    expect(summary(spansInWindow([shared], at('2024-03-01T00:00:00Z'), at('2024-03-02T00:00:00Z')))).toEqual([
      'evt-1 L1 03-01T09:00–03-01T12:00 a+b',
      'evt-1 L1 03-01T12:00–03-01T15:00 b',
    ]);
  });
});
