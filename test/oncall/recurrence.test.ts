import { describe, expect, it } from 'vitest';
import { expandOccurrences, findOccurrenceStartingAt, lastOccurrenceBefore, planTermination } from '../../lib/oncall/recurrence';
import { spansInWindow } from '../../lib/oncall/oncall-spans';
import { DAY, HOUR, at, iso, rotationOf, someEvent } from './event-builder';

function startsOf(occurrences: { start: number }[]): string[] {
  return occurrences.map((occurrence) => iso(occurrence.start));
}

function endsOf(occurrences: { end: number }[]): string[] {
  return occurrences.map((occurrence) => iso(occurrence.end));
}

function hoursOf(occurrences: { start: number; end: number }[]): number[] {
  return occurrences.map((occurrence) => (occurrence.end - occurrence.start) / HOUR);
}

describe('wall-clock repetition in Europe/Berlin', () => {
  const nineToFive = someEvent({
    timeZone: 'Europe/Berlin',
    start: at('2024-03-29T08:00:00Z'), // 09:00 CET
    end: at('2024-03-29T16:00:00Z'), // 17:00 CET
    repeat: true,
    frequency: 1,
    frequencyUnit: 'daily',
  });

  it('keeps 09:00 local across the March change', () => {
    const occurrences = expandOccurrences(nineToFive, at('2024-03-29T00:00:00Z'), at('2024-04-02T00:00:00Z'));

    expect(startsOf(occurrences)).toEqual([
      '2024-03-29T08:00:00.000Z',
      '2024-03-30T08:00:00.000Z',
      '2024-03-31T07:00:00.000Z',
      '2024-04-01T07:00:00.000Z',
    ]);
    expect(endsOf(occurrences)).toEqual([
      '2024-03-29T16:00:00.000Z',
      '2024-03-30T16:00:00.000Z',
      '2024-03-31T15:00:00.000Z',
      '2024-04-01T15:00:00.000Z',
    ]);
    expect(occurrences.map((occurrence) => occurrence.index)).toEqual([0, 1, 2, 3]);
  });

  it('keeps 09:00 local across the October change, counting every day since the start', () => {
    const occurrences = expandOccurrences(nineToFive, at('2024-10-25T00:00:00Z'), at('2024-10-29T00:00:00Z'));

    expect(startsOf(occurrences)).toEqual([
      '2024-10-25T07:00:00.000Z',
      '2024-10-26T07:00:00.000Z',
      '2024-10-27T08:00:00.000Z',
      '2024-10-28T08:00:00.000Z',
    ]);
    // 29 March → 25 October 2024 is 210 calendar days.
    expect(occurrences.map((occurrence) => occurrence.index)).toEqual([210, 211, 212, 213]);
  });

  it('makes a 09:00–09:00 shift 23 hours long on the spring-forward day and 25 on the fall-back day', () => {
    const dayLong = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-03-29T08:00:00Z'),
      end: at('2024-03-30T08:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const march = expandOccurrences(dayLong, at('2024-03-29T12:00:00Z'), at('2024-04-01T12:00:00Z'));
    const october = expandOccurrences(dayLong, at('2024-10-26T12:00:00Z'), at('2024-10-27T08:00:00Z'));

    expect(hoursOf(march)).toEqual([24, 23, 24, 24]);
    expect(iso(march[1].start)).toBe('2024-03-30T08:00:00.000Z');
    expect(iso(march[1].end)).toBe('2024-03-31T07:00:00.000Z');
    expect(hoursOf(october)).toEqual([25]);
    expect(iso(october[0].start)).toBe('2024-10-26T07:00:00.000Z');
    expect(iso(october[0].end)).toBe('2024-10-27T08:00:00.000Z');
  });

  it('hands a 09:00–09:00 shift over with no gap and no overlap', () => {
    const dayLong = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-03-01T08:00:00Z'),
      end: at('2024-03-02T08:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const occurrences = expandOccurrences(dayLong, at('2024-03-01T00:00:00Z'), at('2024-11-30T00:00:00Z'));

    for (let n = 1; n < occurrences.length; n++) expect(occurrences[n].start).toBe(occurrences[n - 1].end);
  });

  it('moves a start inside the spring-forward gap to the same reading after it (02:30 → 03:30)', () => {
    const earlyShift = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-03-30T01:30:00Z'), // 02:30 CET
      end: at('2024-03-30T09:30:00Z'), // 10:30 CET
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const occurrences = expandOccurrences(earlyShift, at('2024-03-30T00:00:00Z'), at('2024-04-02T00:00:00Z'));

    expect(startsOf(occurrences)).toEqual([
      '2024-03-30T01:30:00.000Z', // 02:30 CET
      '2024-03-31T01:30:00.000Z', // 02:30 does not exist: 03:30 CEST
      '2024-04-01T00:30:00.000Z', // 02:30 CEST
    ]);
    // The end reading 10:30 exists, so that day's shift is an hour shorter in real time.
    expect(iso(occurrences[1].end)).toBe('2024-03-31T08:30:00.000Z');
  });

  it('keeps the real length of a shift that lies wholly inside the gap', () => {
    const halfHour = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-03-30T01:30:00Z'), // 02:30–03:00 CET
      end: at('2024-03-30T02:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const [gapDay] = expandOccurrences(halfHour, at('2024-03-31T00:00:00Z'), at('2024-03-31T12:00:00Z'));

    // 02:30 → 03:30 CEST, while the end reading 03:00 CEST would come before it.
    expect(iso(gapDay.start)).toBe('2024-03-31T01:30:00.000Z');
    expect(iso(gapDay.end)).toBe('2024-03-31T02:00:00.000Z');
  });

  it('keeps the real length of a shift that is exactly the skipped hour', () => {
    const skippedHour = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-03-30T01:00:00Z'), // 02:00–03:00 CET
      end: at('2024-03-30T02:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const [gapDay] = expandOccurrences(skippedHour, at('2024-03-31T00:00:00Z'), at('2024-03-31T12:00:00Z'));

    // Start and end readings would both land on 03:00 CEST: an empty shift is not what anyone meant.
    expect(iso(gapDay.start)).toBe('2024-03-31T01:00:00.000Z');
    expect(iso(gapDay.end)).toBe('2024-03-31T02:00:00.000Z');
  });

  it('takes the first of the two 02:30 readings when the hour repeats', () => {
    const earlyShift = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-10-25T00:30:00Z'), // 02:30 CEST
      end: at('2024-10-25T01:30:00Z'), // 03:30 CEST
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const occurrences = expandOccurrences(earlyShift, at('2024-10-26T12:00:00Z'), at('2024-10-29T00:00:00Z'));

    expect(startsOf(occurrences)).toEqual([
      '2024-10-27T00:30:00.000Z', // first 02:30 (CEST)
      '2024-10-28T01:30:00.000Z', // 02:30 CET
    ]);
    // 02:30 CEST → 03:30 CET is one hour on the wall clock and two in real time.
    expect(iso(occurrences[0].end)).toBe('2024-10-27T02:30:00.000Z');
  });
});

describe('other zones', () => {
  it('keeps 09:00 in America/Los_Angeles across both US changes', () => {
    const morning = someEvent({
      timeZone: 'America/Los_Angeles',
      start: at('2024-03-08T17:00:00Z'), // 09:00 PST
      end: at('2024-03-08T18:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const march = expandOccurrences(morning, at('2024-03-08T00:00:00Z'), at('2024-03-11T00:00:00Z'));
    const november = expandOccurrences(morning, at('2024-11-02T00:00:00Z'), at('2024-11-04T00:00:00Z'));

    expect(startsOf(march)).toEqual(['2024-03-08T17:00:00.000Z', '2024-03-09T17:00:00.000Z', '2024-03-10T16:00:00.000Z']);
    expect(startsOf(november)).toEqual(['2024-11-02T16:00:00.000Z', '2024-11-03T17:00:00.000Z']);
  });

  it('follows the southern-hemisphere changes of Australia/Sydney', () => {
    const morning = someEvent({
      timeZone: 'Australia/Sydney',
      start: at('2024-04-04T22:00:00Z'), // 09:00 AEDT on 5 April
      end: at('2024-04-04T23:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const april = expandOccurrences(morning, at('2024-04-04T00:00:00Z'), at('2024-04-07T12:00:00Z'));
    const october = expandOccurrences(morning, at('2024-10-04T12:00:00Z'), at('2024-10-06T00:00:00Z'));

    expect(startsOf(april)).toEqual(['2024-04-04T22:00:00.000Z', '2024-04-05T22:00:00.000Z', '2024-04-06T23:00:00.000Z']);
    expect(startsOf(october)).toEqual(['2024-10-04T23:00:00.000Z', '2024-10-05T22:00:00.000Z']);
  });

  it('keeps the half-hour offset of Asia/Kolkata all year', () => {
    const morning = someEvent({
      timeZone: 'Asia/Kolkata',
      start: at('2024-01-01T03:30:00Z'), // 09:00 IST
      end: at('2024-01-01T04:30:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const year = expandOccurrences(morning, at('2024-01-01T00:00:00Z'), at('2025-01-01T00:00:00Z'));

    expect(year).toHaveLength(366);
    expect(year.every((occurrence) => iso(occurrence.start).endsWith('T03:30:00.000Z'))).toBe(true);
  });
});

describe('hourly repetition', () => {
  it('steps in elapsed hours across the spring-forward change', () => {
    const hourly = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-03-30T23:00:00Z'), // 00:00 CET
      end: at('2024-03-31T00:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'hourly',
    });

    const occurrences = expandOccurrences(hourly, at('2024-03-30T23:00:00Z'), at('2024-03-31T03:00:00Z'));

    // Local 00:00, 01:00, 03:00, 04:00: the clock skips 02:00, the rotation does not.
    expect(startsOf(occurrences)).toEqual([
      '2024-03-30T23:00:00.000Z',
      '2024-03-31T00:00:00.000Z',
      '2024-03-31T01:00:00.000Z',
      '2024-03-31T02:00:00.000Z',
    ]);
    expect(hoursOf(occurrences)).toEqual([1, 1, 1, 1]);
  });

  it('keeps real hours (not the wall clock) for a 24-hourly repeat and through the repeated hour', () => {
    const daily24 = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-03-30T08:00:00Z'), // 09:00 CET
      end: at('2024-03-30T09:00:00Z'),
      repeat: true,
      frequency: 24,
      frequencyUnit: 'hourly',
    });
    const hourly = someEvent({
      timeZone: 'Europe/Berlin',
      start: at('2024-10-26T23:00:00Z'),
      end: at('2024-10-27T00:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'hourly',
    });

    const [nextDay] = expandOccurrences(daily24, at('2024-03-31T00:00:00Z'), at('2024-03-31T12:00:00Z'));
    const fallBack = expandOccurrences(hourly, at('2024-10-27T00:00:00Z'), at('2024-10-27T03:00:00Z'));

    expect(iso(nextDay.start)).toBe('2024-03-31T08:00:00.000Z'); // 10:00 CEST
    expect(hoursOf(fallBack)).toEqual([1, 1, 1]);
    for (let n = 1; n < fallBack.length; n++) expect(fallBack[n].start).toBe(fallBack[n - 1].end);
  });

  it('numbers occurrences arithmetically for an event that began long ago', () => {
    const hourly = someEvent({
      start: at('2000-01-01T00:00:00Z'),
      end: at('2000-01-01T01:00:00Z'),
      repeat: true,
      frequency: 3,
      frequencyUnit: 'hourly',
    });

    const [first] = expandOccurrences(hourly, at('2030-01-01T00:00:00Z'), at('2030-01-01T01:00:00Z'));

    expect(first.index).toBe((at('2030-01-01T00:00:00Z') - at('2000-01-01T00:00:00Z')) / (3 * HOUR));
  });
});

describe('days of the week', () => {
  it('repeats on every listed weekday of every second week, from the start onwards', () => {
    const biweekly = someEvent({
      start: at('2024-01-03T10:00:00Z'), // Wednesday; its week began Sunday 31 December
      end: at('2024-01-03T11:00:00Z'),
      repeat: true,
      frequency: 2,
      frequencyUnit: 'weekly',
      daysOfWeek: [1, 3, 5],
    });

    const occurrences = expandOccurrences(biweekly, at('2023-12-25T00:00:00Z'), at('2024-02-05T00:00:00Z'));

    // Monday 1 January is before the start: it does not exist.
    expect(startsOf(occurrences)).toEqual([
      '2024-01-03T10:00:00.000Z',
      '2024-01-05T10:00:00.000Z',
      '2024-01-15T10:00:00.000Z',
      '2024-01-17T10:00:00.000Z',
      '2024-01-19T10:00:00.000Z',
      '2024-01-29T10:00:00.000Z',
      '2024-01-31T10:00:00.000Z',
      '2024-02-02T10:00:00.000Z',
    ]);
    expect(occurrences.map((occurrence) => occurrence.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('reads weekdays on the wall clock of the event zone', () => {
    const lateEvening = someEvent({
      timeZone: 'America/Los_Angeles',
      start: at('2024-01-04T06:00:00Z'), // Wednesday 3 January, 22:00 PST
      end: at('2024-01-04T07:00:00Z'),
      repeat: true,
      frequency: 2,
      frequencyUnit: 'weekly',
      daysOfWeek: [1, 3, 5],
    });

    const occurrences = expandOccurrences(lateEvening, at('2024-01-01T00:00:00Z'), at('2024-01-20T00:00:00Z'));

    expect(startsOf(occurrences)).toEqual([
      '2024-01-04T06:00:00.000Z', // Wed 22:00 PST
      '2024-01-06T06:00:00.000Z', // Fri
      '2024-01-16T06:00:00.000Z', // Mon of the week after next
      '2024-01-18T06:00:00.000Z', // Wed
    ]);
  });

  it('counts far-away weekly-by-weekday occurrences with whole-week arithmetic', () => {
    const biweekly = someEvent({
      start: at('2024-01-03T10:00:00Z'),
      end: at('2024-01-03T11:00:00Z'),
      repeat: true,
      frequency: 2,
      frequencyUnit: 'weekly',
      daysOfWeek: [1, 3, 5],
    });

    // Week of Sunday 29 December 2024 is week 52 since 31 December 2023: an active week.
    const occurrences = expandOccurrences(biweekly, at('2024-12-29T00:00:00Z'), at('2025-01-04T00:00:00Z'));

    // Occurrences before: 2 in week 0, then 3 in each of the 25 active weeks 2, 4, …, 50.
    expect(occurrences.map((occurrence) => [iso(occurrence.start), occurrence.index])).toEqual([
      ['2024-12-30T10:00:00.000Z', 77],
      ['2025-01-01T10:00:00.000Z', 78],
      ['2025-01-03T10:00:00.000Z', 79],
    ]);
  });

  it('keeps only listed weekdays of a daily repeat, and those alone take rotation numbers', () => {
    const weekdays = someEvent({
      start: at('2024-01-01T09:00:00Z'), // Monday
      end: at('2024-01-01T17:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
      daysOfWeek: [1, 2, 3, 4, 5],
      ...rotationOf('usr-a', 'usr-b', 'usr-c'),
    });

    const spans = spansInWindow([weekdays], at('2024-01-01T00:00:00Z'), at('2024-01-10T00:00:00Z'));

    expect(spans.map((span) => [iso(span.start).slice(0, 10), span.attendees[0].attendeeId])).toEqual([
      ['2024-01-01', 'usr-a'],
      ['2024-01-02', 'usr-b'],
      ['2024-01-03', 'usr-c'],
      ['2024-01-04', 'usr-a'],
      ['2024-01-05', 'usr-b'],
      ['2024-01-08', 'usr-c'],
      ['2024-01-09', 'usr-a'],
    ]);
  });

  it('filters the days of an every-other-day repeat by weekday', () => {
    const everyOtherDay = someEvent({
      start: at('2024-01-01T09:00:00Z'), // Monday
      end: at('2024-01-01T10:00:00Z'),
      repeat: true,
      frequency: 2,
      frequencyUnit: 'daily',
      daysOfWeek: [1, 2, 3, 4, 5],
    });

    const occurrences = expandOccurrences(everyOtherDay, at('2024-01-01T00:00:00Z'), at('2024-01-16T00:00:00Z'));

    // Candidates 1, 3, 5, 7 (Sun), 9, 11, 13 (Sat), 15.
    expect(occurrences.map((occurrence) => [iso(occurrence.start).slice(0, 10), occurrence.index])).toEqual([
      ['2024-01-01', 0],
      ['2024-01-03', 1],
      ['2024-01-05', 2],
      ['2024-01-09', 3],
      ['2024-01-11', 4],
      ['2024-01-15', 5],
    ]);
  });
});

describe('monthly and yearly dates that do not exist', () => {
  it('skips months without a 31st, which take no rotation number', () => {
    const monthEnd = someEvent({
      start: at('2024-01-31T10:00:00Z'),
      end: at('2024-01-31T11:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'monthly',
      ...rotationOf('usr-a', 'usr-b'),
    });

    const occurrences = expandOccurrences(monthEnd, at('2024-01-01T00:00:00Z'), at('2025-02-01T00:00:00Z'));
    const spans = spansInWindow([monthEnd], at('2024-01-01T00:00:00Z'), at('2024-06-01T00:00:00Z'));

    expect(occurrences.map((occurrence) => [iso(occurrence.start).slice(0, 10), occurrence.index])).toEqual([
      ['2024-01-31', 0],
      ['2024-03-31', 1],
      ['2024-05-31', 2],
      ['2024-07-31', 3],
      ['2024-08-31', 4],
      ['2024-10-31', 5],
      ['2024-12-31', 6],
      ['2025-01-31', 7],
    ]);
    expect(spans.map((span) => span.attendees[0].attendeeId)).toEqual(['usr-a', 'usr-b', 'usr-a']);
  });

  it('repeats a 29 February yearly only in leap years', () => {
    const leapDay = someEvent({
      start: at('2024-02-29T10:00:00Z'),
      end: at('2024-02-29T11:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'yearly',
    });

    const occurrences = expandOccurrences(leapDay, at('2024-03-01T00:00:00Z'), at('2033-01-01T00:00:00Z'));

    expect(occurrences.map((occurrence) => [iso(occurrence.start).slice(0, 10), occurrence.index])).toEqual([
      ['2028-02-29', 1],
      ['2032-02-29', 2],
    ]);
  });

  it('knows 1900 was not a leap year when numbering from 1896', () => {
    const leapDay = someEvent({
      start: at('1896-02-29T10:00:00Z'),
      end: at('1896-02-29T11:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'yearly',
    });

    const occurrences = expandOccurrences(leapDay, at('2000-01-01T00:00:00Z'), at('2001-01-01T00:00:00Z'));

    // 1896, 1904, …, 2000 is 27 leap days less 1900.
    expect(occurrences.map((occurrence) => [iso(occurrence.start).slice(0, 10), occurrence.index])).toEqual([['2000-02-29', 25]]);
  });

  it('skips the 30th in February only', () => {
    const thirtieth = someEvent({
      start: at('2023-11-30T10:00:00Z'),
      end: at('2023-11-30T11:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'monthly',
    });

    const occurrences = expandOccurrences(thirtieth, at('2024-01-01T00:00:00Z'), at('2024-05-01T00:00:00Z'));

    expect(occurrences.map((occurrence) => [iso(occurrence.start).slice(0, 10), occurrence.index])).toEqual([
      ['2024-01-30', 2],
      ['2024-03-30', 3],
      ['2024-04-30', 4],
    ]);
  });
});

describe('repeat end and exceptions', () => {
  const daily = someEvent({
    start: at('2024-01-01T09:00:00Z'),
    end: at('2024-01-01T10:00:00Z'),
    repeat: true,
    frequency: 1,
    frequencyUnit: 'daily',
  });

  it('keeps an occurrence starting exactly at repeat_end', () => {
    const ended = { ...daily, repeatEnd: at('2024-01-03T09:00:00Z') };

    const occurrences = expandOccurrences(ended, at('2024-01-01T00:00:00Z'), at('2024-02-01T00:00:00Z'));

    expect(startsOf(occurrences)).toEqual(['2024-01-01T09:00:00.000Z', '2024-01-02T09:00:00.000Z', '2024-01-03T09:00:00.000Z']);
  });

  it('drops an occurrence starting a millisecond after repeat_end', () => {
    const ended = { ...daily, repeatEnd: at('2024-01-03T08:59:59.999Z') };

    const occurrences = expandOccurrences(ended, at('2024-01-01T00:00:00Z'), at('2024-02-01T00:00:00Z'));

    expect(occurrences).toHaveLength(2);
  });

  it('removes single occurrences by start while the others keep their rotation numbers', () => {
    const rotation = { ...daily, ...rotationOf('usr-a', 'usr-b'), exceptions: [at('2024-01-02T09:00:00Z')] };

    const occurrences = expandOccurrences(rotation, at('2024-01-01T00:00:00Z'), at('2024-01-05T00:00:00Z'));
    const spans = spansInWindow([rotation], at('2024-01-01T00:00:00Z'), at('2024-01-05T00:00:00Z'));

    expect(occurrences.map((occurrence) => occurrence.index)).toEqual([0, 2, 3]);
    expect(spans.map((span) => span.attendees[0].attendeeId)).toEqual(['usr-a', 'usr-a', 'usr-b']);
  });

  it('numbers a rotation with both days_of_week and exceptions by listed days only', () => {
    const mondayWednesdayFriday = {
      ...daily,
      daysOfWeek: [1, 3, 5],
      ...rotationOf('usr-a', 'usr-b', 'usr-c'),
      exceptions: [at('2024-01-03T09:00:00Z')],
    };

    const spans = spansInWindow([mondayWednesdayFriday], at('2024-01-01T00:00:00Z'), at('2024-01-11T00:00:00Z'));

    expect(spans.map((span) => [iso(span.start).slice(0, 10), span.attendees[0].attendeeId])).toEqual([
      ['2024-01-01', 'usr-a'], // 0
      ['2024-01-05', 'usr-c'], // 2 (1 was removed)
      ['2024-01-08', 'usr-a'], // 3
      ['2024-01-10', 'usr-b'], // 4
    ]);
  });

  it('gives a non-repeating event exactly one occurrence', () => {
    const once = someEvent({ start: at('2024-01-01T09:00:00Z'), end: at('2024-01-01T10:00:00Z') });

    const occurrences = expandOccurrences(once, at('2023-01-01T00:00:00Z'), at('2025-01-01T00:00:00Z'));

    expect(occurrences).toEqual([{ eventId: 'evt-1', index: 0, start: once.start, end: once.end }]);
  });

  it('returns only occurrences overlapping the window', () => {
    const occurrences = expandOccurrences(daily, at('2024-01-02T10:00:00Z'), at('2024-01-03T09:00:00Z'));

    expect(occurrences).toEqual([]);
  });
});

describe('occurrences named by their start (add_exception, override, terminate_on)', () => {
  const daily = someEvent({
    start: at('2024-01-01T09:00:00Z'),
    end: at('2024-01-01T10:00:00Z'),
    repeat: true,
    frequency: 1,
    frequencyUnit: 'daily',
    exceptions: [at('2024-01-04T09:00:00Z')],
  });

  it('finds the occurrence starting exactly at the action time', () => {
    expect(findOccurrenceStartingAt(daily, at('2024-01-03T09:00:00Z'))).toEqual({
      eventId: 'evt-1',
      index: 2,
      start: at('2024-01-03T09:00:00Z'),
      end: at('2024-01-03T10:00:00Z'),
    });
  });

  it('finds nothing for a time that starts no occurrence', () => {
    expect(findOccurrenceStartingAt(daily, at('2024-01-03T09:01:00Z'))).toBeNull();
    expect(findOccurrenceStartingAt(daily, at('2023-12-31T09:00:00Z'))).toBeNull();
  });

  it('treats a removed occurrence as gone unless asked to include it', () => {
    expect(findOccurrenceStartingAt(daily, at('2024-01-04T09:00:00Z'))).toBeNull();
    expect(findOccurrenceStartingAt(daily, at('2024-01-04T09:00:00Z'), { includeRemoved: true })?.index).toBe(3);
  });

  it('finds the previous occurrence, months back when dates are skipped', () => {
    const monthEnd = someEvent({
      start: at('2024-01-31T10:00:00Z'),
      end: at('2024-01-31T11:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'monthly',
    });

    expect(lastOccurrenceBefore(daily, at('2024-01-05T09:00:00Z'))?.start).toBe(at('2024-01-04T09:00:00Z'));
    expect(lastOccurrenceBefore(monthEnd, at('2024-03-31T10:00:00Z'))?.start).toBe(at('2024-01-31T10:00:00Z'));
    expect(lastOccurrenceBefore(daily, daily.start)).toBeNull();
  });

  it('plans terminate_on: delete at the first occurrence, otherwise end the repetition just before', () => {
    const third = at('2024-01-03T09:00:00Z');

    const atFirst = planTermination(daily, daily.start);
    const atThird = planTermination(daily, third);
    const nowhere = planTermination(daily, at('2024-01-03T09:30:00Z'));

    expect(atFirst).toEqual({ kind: 'delete' });
    expect(atThird).toEqual({ kind: 'truncate', repeatEnd: at('2024-01-02T09:00:00Z') });
    expect(nowhere).toBeNull();
    const truncated = { ...daily, repeatEnd: at('2024-01-02T09:00:00Z') };
    expect(expandOccurrences(truncated, daily.start, daily.start + 30 * DAY)).toHaveLength(2);
  });
});

describe('zone names', () => {
  it('accepts a friendly zone name where an IANA one is expected', () => {
    const friendly = someEvent({
      timeZone: 'Berlin',
      start: at('2024-03-30T08:00:00Z'),
      end: at('2024-03-30T09:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
    });

    const [sunday] = expandOccurrences(friendly, at('2024-03-31T00:00:00Z'), at('2024-03-31T12:00:00Z'));

    expect(iso(sunday.start)).toBe('2024-03-31T07:00:00.000Z');
  });
});
