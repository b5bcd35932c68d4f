// The hand-written moment.js formatting (lib/rule-engine/moment-format.ts) against moment itself, with
// moment-timezone's own zone data: random instants, zones and format strings made of every token the
// rules accept, literals and escapes, and the localized formats. Only the zone abbreviation (z, zz)
// is left out: ours are Intl's English names ("GMT+1"), moment-timezone's its own table ("CET").
import fc from 'fast-check';
import moment from 'moment-timezone';
import { describe, expect, it } from 'vitest';
import { compileFormat, renderFormat, wallClock } from '../../lib/rule-engine';

// Zones with whole, half and quarter hours, both hemispheres' summer time, and none.
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'Pacific/Honolulu',
];

const TOKENS = [
  ...['M', 'Mo', 'MM', 'MMM', 'MMMM', 'Q', 'Qo', 'D', 'Do', 'DD', 'DDD', 'DDDo', 'DDDD'],
  ...['d', 'do', 'dd', 'ddd', 'dddd', 'e', 'E', 'W', 'Wo', 'WW', 'GG', 'GGGG', 'GGGGG'],
  ...['YYYY', 'YYYYY', 'YYYYYY', 'YY', 'Y', 'A', 'a', 'H', 'HH', 'h', 'hh', 'k', 'kk', 'm', 'mm', 's', 'ss'],
  ...['S', 'SS', 'SSS', 'SSSS', 'SSSSSSSSS', 'Z', 'ZZ', 'X', 'x', 'Hmm', 'hmm', 'Hmmss', 'hmmss'],
  ...['LT', 'LTS', 'L', 'LL', 'LLL', 'LLLL', 'l', 'll', 'lll', 'llll'],
];
const LITERALS = [' ', '-', ':', '/', '.', ',', 'T', '[at]', "[o'clock]", '\\Y', '[]', '@'];

const formats = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TOKENS) }, { weight: 2, arbitrary: fc.constantFrom(...LITERALS) }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join(''))
  .filter((format) => format.length <= 100);

const instants = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2037, 11, 31) });

describe('moment-format against moment', () => {
  it('renders every format as moment does, in every zone, at any instant', () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...ZONES), formats, (epoch, zone, format) => {
        const compiled = compileFormat(format);
        expect(compiled.ok, format).toBe(true);
        if (!compiled.ok) return;
        expect(renderFormat(compiled.parts, wallClock(zone, epoch))).toBe(moment.tz(epoch, zone).format(format));
      }),
      { numRuns: 3_000 },
    );
  });

  it('agrees around the changes of summer time, where the offset moves', () => {
    // The minutes on either side of each change in 2024, found by moment-timezone's own data.
    const changes = ZONES.flatMap((zone) => {
      const found: number[] = [];
      for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2025, 0, 1); t += 3_600_000) {
        if (moment.tz(t, zone).utcOffset() !== moment.tz(t + 3_600_000, zone).utcOffset()) found.push(t + 3_600_000);
      }
      return found.map((change) => ({ zone, change }));
    });
    expect(changes.length).toBeGreaterThan(10);
    fc.assert(
      fc.property(fc.constantFrom(...changes), fc.integer({ min: -90, max: 90 }), formats, ({ zone, change }, minutes, format) => {
        const epoch = change + minutes * 60_000;
        const compiled = compileFormat(`${format} Z`);
        if (!compiled.ok) return;
        expect(renderFormat(compiled.parts, wallClock(zone, epoch))).toBe(moment.tz(epoch, zone).format(`${format} Z`));
      }),
      { numRuns: 1_000 },
    );
  });
});
