// Night and weekend time on a person's own clock, worked out by hand across both of Berlin's offset
// changes and a zone with a half-hour offset, then against an independent count: minute by minute
// through Intl, over random intervals in random zones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nightAndWeekend } from '../../lib/oncall/fairness';

const HOUR = 3_600_000;
const at = (text: string) => Date.parse(text);
const hours = (split: { nightMs: number; weekendMs: number }) => ({ night: split.nightMs / HOUR, weekend: split.weekendMs / HOUR });

describe('night and weekend time on the wall clock', () => {
  it('counts 22:00–07:00 and Saturday–Sunday on a plain week in UTC', () => {
    // Friday 2026-03-06 12:00 to Monday 12:00 UTC: nights Fri, Sat, Sun (9 h each); the weekend is 48 h.
    expect(hours(nightAndWeekend([{ start: at('2026-03-06T12:00:00Z'), end: at('2026-03-09T12:00:00Z') }], 'UTC'))).toEqual({
      night: 27,
      weekend: 48,
    });
  });

  it("follows Berlin's spring change: the short night has 8 hours, the short Sunday 23", () => {
    // Saturday 2026-03-28 12:00 to Monday 12:00 Berlin (11:00Z to 10:00Z): clocks go 02:00 → 03:00 on Sunday.
    const split = nightAndWeekend([{ start: at('2026-03-28T11:00:00Z'), end: at('2026-03-30T10:00:00Z') }], 'Europe/Berlin');
    // Nights: Sat 22:00 → Sun 07:00 is 8 h; Sun 22:00 → Mon 07:00 is 9 h. Weekend: Sat 12 h + Sun 23 h.
    expect(hours(split)).toEqual({ night: 17, weekend: 35 });
  });

  it("follows Berlin's autumn change: the long night has 10 hours", () => {
    // Saturday 2026-10-24 20:00 to Sunday 10:00 Berlin (18:00Z to 09:00Z): 03:00 → 02:00 on Sunday.
    const split = nightAndWeekend([{ start: at('2026-10-24T18:00:00Z'), end: at('2026-10-25T09:00:00Z') }], 'Europe/Berlin');
    expect(hours(split)).toEqual({ night: 10, weekend: 15 });
  });

  it('reads a half-hour offset: Kolkata is UTC+05:30', () => {
    // 2026-03-02 (Monday) 16:00Z–02:00Z is 21:30–07:30 in Kolkata: night 22:00–07:00 = 9 h.
    const split = nightAndWeekend([{ start: at('2026-03-02T16:00:00Z'), end: at('2026-03-03T02:00:00Z') }], 'Asia/Kolkata');
    expect(hours(split)).toEqual({ night: 9, weekend: 0 });
  });

  it('adds up several intervals and ignores empty ones', () => {
    const split = nightAndWeekend(
      [
        { start: at('2026-03-07T23:00:00Z'), end: at('2026-03-08T01:00:00Z') },
        { start: at('2026-03-04T12:00:00Z'), end: at('2026-03-04T12:00:00Z') },
        { start: at('2026-03-04T06:00:00Z'), end: at('2026-03-04T08:00:00Z') },
      ],
      'UTC',
    );
    expect(hours(split)).toEqual({ night: 3, weekend: 2 });
  });

  it('agrees with a minute-by-minute count through Intl', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Apia', 'UTC'];
    const readers = new Map(
      zones.map((zone) => [
        zone,
        new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' }),
      ]),
    );
    const minute = 60_000;
    // Starts on whole minutes, within a year holding every change of these zones.
    const interval = fc
      .tuple(fc.integer({ min: 0, max: 365 * 24 * 60 }), fc.integer({ min: 1, max: 4 * 24 * 60 }))
      .map(([startMinute, length]) => ({ start: at('2026-01-01T00:00:00Z') + startMinute * minute, length }));
    fc.assert(
      fc.property(fc.constantFrom(...zones), interval, (zone, { start, length }) => {
        const reader = readers.get(zone)!;
        let night = 0;
        let weekend = 0;
        for (let t = start; t < start + length * minute; t += minute) {
          const parts = Object.fromEntries(reader.formatToParts(t).map((part) => [part.type, part.value]));
          const hour = Number(parts.hour);
          if (hour >= 22 || hour < 7) night += minute;
          if (parts.weekday === 'Sat' || parts.weekday === 'Sun') weekend += minute;
        }
        const split = nightAndWeekend([{ start, end: start + length * minute }], zone);
        expect({ night: split.nightMs, weekend: split.weekendMs }).toEqual({ night, weekend });
      }),
      { numRuns: 60 },
    );
  });
});
