import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileFormat, compileTimeFormat, parseTimeOfDay, renderFormat, wallClock } from '../../lib/rule-engine';
import { context, holds } from './support';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const ZONES = [
  'Etc/UTC',
  'America/Los_Angeles',
  'America/New_York',
  'America/St_Johns', // −03:30 / −02:30
  'Europe/Berlin',
  'Europe/London',
  'Asia/Kolkata', // +05:30, no DST
  'Asia/Kathmandu', // +05:45
  'Australia/Lord_Howe', // 30-minute DST
  'Pacific/Chatham', // +12:45 / +13:45
  'America/Sao_Paulo',
];

/** The wall clock of `epoch` in `zone` through Intl, independent of luxon: the naive reference. */
function naiveWall(zone: string, epoch: number) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'short',
  }).formatToParts(new Date(epoch));
  const get = (type: string) => parts.find((part) => part.type === type)!.value;
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')) + 1;
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    millisecond: ((epoch % 1000) + 1000) % 1000,
    weekday,
  };
}

function hhmmA(minuteOfDay: number): string {
  const hour = Math.floor(minuteOfDay / 60);
  const minute = minuteOfDay % 60;
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${String(hour12).padStart(2, '0')}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'am' : 'pm'}`;
}

// DST transitions of 2024–2026 in the zones above and random instants over 2000–2040.
const transitions = [
  Date.UTC(2024, 2, 10, 10),
  Date.UTC(2024, 10, 3, 9),
  Date.UTC(2024, 2, 31, 1),
  Date.UTC(2024, 9, 27, 1),
  Date.UTC(2025, 3, 5, 15),
  Date.UTC(2025, 8, 27, 14, 45),
  Date.UTC(2026, 2, 8, 10),
  Date.UTC(2025, 3, 5, 13, 30),
];
const instant = fc.oneof(
  fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
  fc.tuple(fc.constantFrom(...transitions), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 })).map(([at, shift]) => at + shift),
);

// Whole minutes too, so that instants land exactly on span bounds.
const instantOnBounds = fc.oneof(
  instant,
  instant.map((epoch) => Math.floor(epoch / 60_000) * 60_000),
);

const ctx = context({ title: 'x' });

describe('time operators read the instant given, in real time zones', () => {
  it('wall-clock readings agree with Intl in every zone, across DST changes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (zone, epoch) => {
        const clock = wallClock(zone, epoch);
        const naive = naiveWall(zone, epoch);

        expect({ ...naive }).toEqual({
          year: clock.year,
          month: clock.month,
          day: clock.day,
          hour: clock.hour,
          minute: clock.minute,
          second: clock.second,
          millisecond: clock.millisecond,
          weekday: clock.weekday,
        });
      }),
      { numRuns: 400 },
    );
  });

  it('$timeBetween agrees with a naive inclusive comparison, overnight spans included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        instantOnBounds,
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 0, max: 1439 }),
        (zone, epoch, start, end) => {
          const wall = naiveWall(zone, epoch);
          const now = ((wall.hour * 60 + wall.minute) * 60 + wall.second) * 1000 + wall.millisecond;
          const startMs = start * 60_000;
          const endMs = end * 60_000;
          const expected = startMs <= endMs ? now >= startMs && now <= endMs : now >= startMs || now <= endMs;

          expect(holds({ $timeBetween: { timezone: zone, starttime: hhmmA(start), endtime: hhmmA(end) } }, ctx, epoch)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('$timeBetween is inclusive at both ends and spans midnight when start is after end', () => {
    const at = (h: number, m: number, s = 0) => Date.UTC(2024, 5, 3, h, m, s);
    const business = { $timeBetween: { timezone: 'Etc/UTC', starttime: '09:00 am', endtime: '05:00 pm' } };
    const night = { $timeBetween: { timezone: 'Etc/UTC', starttime: '10:00 pm', endtime: '06:00 am' } };

    expect(holds(business, ctx, at(9, 0))).toBe(true);
    expect(holds(business, ctx, at(17, 0))).toBe(true);
    expect(holds(business, ctx, at(17, 0, 1))).toBe(false);
    expect(holds(business, ctx, at(8, 59, 59))).toBe(false);
    expect(holds(night, ctx, at(23, 30))).toBe(true);
    expect(holds(night, ctx, at(3, 0))).toBe(true);
    expect(holds(night, ctx, at(6, 0))).toBe(true);
    expect(holds(night, ctx, at(12, 0))).toBe(false);
  });

  it('$timeBetween reads the zone: 09:00–17:00 in Los Angeles is 16:00–00:00 UTC in summer', () => {
    const match = { $timeBetween: { timezone: 'America/Los_Angeles', starttime: '9:00 AM', endtime: '5:00 PM' } };

    expect(holds(match, ctx, Date.UTC(2024, 6, 1, 16, 30))).toBe(true);
    expect(holds(match, ctx, Date.UTC(2024, 6, 1, 12, 0))).toBe(false);
    // Winter: PST, one hour later in UTC.
    expect(holds(match, ctx, Date.UTC(2024, 0, 15, 16, 30))).toBe(false);
    expect(holds(match, ctx, Date.UTC(2024, 0, 15, 17, 30))).toBe(true);
  });

  it('$timeBetween takes another timeformat', () => {
    const match = { $timeBetween: { timezone: 'Europe/Berlin', timeformat: 'HH:mm', starttime: '08:30', endtime: '18:00' } };

    expect(holds(match, ctx, Date.UTC(2024, 0, 15, 7, 45))).toBe(true); // 08:45 CET
    expect(holds(match, ctx, Date.UTC(2024, 0, 15, 7, 15))).toBe(false); // 08:15 CET
  });

  it('$day: ISO weekday 1..7 in the zone', () => {
    const sundayUtcEvening = Date.UTC(2024, 5, 2, 23, 30); // Sunday 23:30 UTC, Monday 01:30 in Berlin
    const weekend = (zone: string) => ({ $day: { timezone: zone, $in: [6, 7] } });

    expect(holds(weekend('Etc/UTC'), ctx, sundayUtcEvening)).toBe(true);
    expect(holds(weekend('Europe/Berlin'), ctx, sundayUtcEvening)).toBe(false);
    expect(holds({ $day: { timezone: 'Europe/Berlin', $eq: 1 } }, ctx, sundayUtcEvening)).toBe(true);
    expect(holds({ $day: 7 }, ctx, sundayUtcEvening)).toBe(true);
    expect(holds({ $day: { $in: ['7'] } }, ctx, sundayUtcEvening)).toBe(true);
    expect(holds({ $day: { $gte: 1, $lte: 5 } }, ctx, sundayUtcEvening)).toBe(false);
  });

  it('$day agrees with Intl for random instants and zones', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, fc.integer({ min: 1, max: 7 }), (zone, epoch, day) => {
        expect(holds({ $day: { timezone: zone, $eq: day } }, ctx, epoch)).toBe(naiveWall(zone, epoch).weekday === day);
      }),
      { numRuns: 200 },
    );
  });

  it('$now: holidays in a zone, with the default format and with others', () => {
    const christmasChicago = Date.UTC(2024, 11, 26, 3, 0); // 25 Dec 21:00 in Chicago
    const holidays = { $now: { timezone: 'America/Chicago', format: 'MM-DD', $in: ['01-01', '12-25'] } };

    expect(holds(holidays, ctx, christmasChicago)).toBe(true);
    expect(holds({ ...holidays, $now: { ...holidays.$now, timezone: 'Etc/UTC' } }, ctx, christmasChicago)).toBe(false);
    expect(holds({ $now: { $eq: '2024-12-26' } }, ctx, christmasChicago)).toBe(true);
    expect(holds({ $now: '2024-12-26' }, ctx, christmasChicago)).toBe(true);
    expect(holds({ $now: { timezone: 'America/Chicago', format: 'H', $gte: 18 } }, ctx, christmasChicago)).toBe(true);
    expect(holds({ $now: { format: 'YYYY', $gte: '2025' } }, ctx, christmasChicago)).toBe(false);
  });

  it('$now renders like Intl for a full date-time format', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (zone, epoch) => {
        const w = naiveWall(zone, epoch);
        const pad = (n: number) => String(n).padStart(2, '0');
        const expected = `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;

        expect(holds({ $now: { timezone: zone, format: 'YYYY-MM-DD HH:mm:ss', $eq: expected } }, ctx, epoch)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('moment.js format tokens', () => {
  const render = (format: string, epoch: number, zone = 'America/New_York') => {
    const compiled = compileFormat(format);
    if (!compiled.ok) throw new Error(compiled.message);
    return renderFormat(compiled.parts, wallClock(zone, epoch));
  };
  const at = Date.UTC(2024, 0, 7, 5, 4, 3, 21); // Sunday 7 Jan 2024 00:04:03.021 in New York (EST)

  it('renders date, time, ordinal, week, zone and epoch tokens', () => {
    expect(render('YYYY-MM-DD', at)).toBe('2024-01-07');
    expect(render('YY M D', at)).toBe('24 1 7');
    expect(render('MMM MMMM Mo Do DDD DDDD DDDo', at)).toBe('Jan January 1st 7th 7 007 7th');
    expect(render('d do dd ddd dddd e E', at)).toBe('0 0th Su Sun Sunday 0 7');
    expect(render('W WW Wo GGGG GG', at)).toBe('1 01 1st 2024 24');
    expect(render('Q Qo', at)).toBe('1 1st');
    expect(render('H HH h hh k kk m mm s ss', at)).toBe('0 00 12 12 24 24 4 04 3 03');
    expect(render('A a', at)).toBe('AM am');
    expect(render('S SS SSS SSSS', at)).toBe('0 02 021 0210');
    expect(render('Z ZZ z', at)).toBe('-05:00 -0500 EST');
    expect(render('X x', at)).toBe(`${Math.floor(at / 1000)} ${at}`);
    expect(render('Hmm hmm', at)).toBe('004 1204');
    expect(render('[Today is] dddd', at)).toBe('Today is Sunday');
    expect(render('YYYY-MM-DDTHH:mm', at)).toBe('2024-01-07T00:04');
    expect(render('LT L LL', at)).toBe('12:04 AM 01/07/2024 January 7, 2024');
    expect(render('\\Y YYYY', at)).toBe('Y 2024');
  });

  it('ISO weeks at the turn of the year', () => {
    expect(render('GGGG-[W]WW-E', Date.UTC(2021, 0, 1, 12), 'Etc/UTC')).toBe('2020-W53-5');
    expect(render('GGGG-[W]WW-E', Date.UTC(2024, 11, 30, 12), 'Etc/UTC')).toBe('2025-W01-1');
    expect(render('Do', Date.UTC(2024, 0, 11, 12), 'Etc/UTC')).toBe('11th');
    expect(render('Do', Date.UTC(2024, 0, 22, 12), 'Etc/UTC')).toBe('22nd');
  });

  it('refuses locale-week and era tokens', () => {
    for (const format of ['w', 'ww', 'gggg', 'yyyy', 'N']) expect(compileFormat(format).ok).toBe(false);
  });

  it('reads times of day leniently, as moment does', () => {
    const format = compileTimeFormat('hh:mm a');
    if (!format.ok) throw new Error(format.message);
    const read = (text: string) => parseTimeOfDay(text, format.parts);

    expect(read('09:00 am')).toBe(9 * 3_600_000);
    expect(read('9:00 AM')).toBe(9 * 3_600_000);
    expect(read('05:30 pm')).toBe(17.5 * 3_600_000);
    expect(read('12:00 am')).toBe(0);
    expect(read('12:15 pm')).toBe(12.25 * 3_600_000);
    expect(read('17:00')).toBe(17 * 3_600_000);
    expect(read('5pm')).toBe(17 * 3_600_000);
    expect(read('noon')).toBeNull();
    expect(read('25:00')).toBeNull();
    expect(read('10:75 am')).toBeNull();
    expect(compileTimeFormat('YYYY HH').ok).toBe(false);
    expect(compileTimeFormat('mm').ok).toBe(false);
  });
});
