import { describe, expect, it } from 'vitest';
import { readIsoDateTime } from '../../lib/encoding/iso-datetime';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The wall-clock digits as an instant in UTC, so a row states the expected reading in plain text. */
const wall = (digits: string) => Date.parse(`${digits}Z`);

describe('ISO 8601 datetime inputs: the forms accepted', () => {
  it.each<[string, string, number | null]>([
    // [input, the wall-clock reading it names, the offset it carries in ms (null: none)]
    ['2026-03-29', '2026-03-29T00:00:00.000', null],
    ['2026-03-29T09:00', '2026-03-29T09:00:00.000', null],
    ['2026-03-29T09:00:15', '2026-03-29T09:00:15.000', null],
    ['2026-03-29 09:00:15', '2026-03-29T09:00:15.000', null],
    ['2026-03-29t09:00:15', '2026-03-29T09:00:15.000', null],
    ['2026-03-29T09:00:15.250', '2026-03-29T09:00:15.250', null],
    ['2026-03-29T09:00:15,5', '2026-03-29T09:00:15.500', null],
    ['2026-03-29T09:00:15.123456789', '2026-03-29T09:00:15.123', null],
    ['2026-03-29T09:00:15.9999', '2026-03-29T09:00:15.999', null],
    ['2026-03-29T09:00:15Z', '2026-03-29T09:00:15.000', 0],
    ['2026-03-29T09:00:15z', '2026-03-29T09:00:15.000', 0],
    ['2026-03-29T09:00:15.250Z', '2026-03-29T09:00:15.250', 0],
    ['2026-03-29T09:00:15+02:00', '2026-03-29T09:00:15.000', 2 * HOUR],
    ['2026-03-29T09:00:15-0530', '2026-03-29T09:00:15.000', -(5 * HOUR + 30 * MINUTE)],
    ['2026-03-29T09:00:15+05', '2026-03-29T09:00:15.000', 5 * HOUR],
    ['2026-03-29T09:00:15-00:00', '2026-03-29T09:00:15.000', 0],
    ['2026-03-29T09:00:15+18:00', '2026-03-29T09:00:15.000', 18 * HOUR],
    ['2026-03-29T09:00:15+12:45', '2026-03-29T09:00:15.000', 12 * HOUR + 45 * MINUTE],
    ['2026-03-29T09:00 +02:00', '2026-03-29T09:00:00.000', 2 * HOUR],
    ['2026-03-29Z', '2026-03-29T00:00:00.000', 0],
    ['2026-03-29+02:00', '2026-03-29T00:00:00.000', 2 * HOUR],
    ['  2026-03-29T09:00\n', '2026-03-29T09:00:00.000', null],
    ['2024-02-29T23:59:59', '2024-02-29T23:59:59.000', null],
    ['2000-02-29', '2000-02-29T00:00:00.000', null],
    ['9999-12-31T23:59:59.999', '9999-12-31T23:59:59.999', null],
  ])('%j reads %s with offset %s', (input, digits, offset) => {
    expect(readIsoDateTime(input)).toEqual({ wall: wall(digits), offset });
  });

  it('reads the years 0000–0099 as themselves, not as 1900–1999', () => {
    expect(new Date(readIsoDateTime('0050-06-15T12:00')!.wall).toISOString()).toBe('0050-06-15T12:00:00.000Z');
    expect(readIsoDateTime('0000-01-01')).toEqual({ wall: -62_167_219_200_000, offset: null });
  });
});

describe('ISO 8601 datetime inputs: the forms refused', () => {
  it.each([
    ['empty', ''],
    ['white space', '   '],
    ['a word', 'tomorrow'],
    ['Unix seconds', '1767225600'],
    ['a day that does not exist', '2026-02-30T09:00'],
    ['February 29 of a common year', '2023-02-29'],
    ['February 29 of a century', '1900-02-29'],
    ['day 0', '2026-03-00'],
    ['day 32', '2026-01-32'],
    ['month 13', '2026-13-01'],
    ['month 0', '2026-00-10'],
    ['hour 24', '2026-01-01T24:00'],
    ['hour 25', '2026-01-01T25:00'],
    ['minute 60', '2026-01-01T10:60'],
    ['a leap second', '2026-12-31T23:59:60Z'],
    ['an offset of 19 hours', '2026-01-01T10:00:00+19:00'],
    ['an offset of 99 hours', '2026-01-01T10:00:00+99:00'],
    ['an offset with 60 minutes', '2026-01-01T10:00:00+05:60'],
    ['a one-digit offset', '2026-01-01T10:00:00+5'],
    ['the hour alone', '2026-01-01T09'],
    ['one-digit fields', '2026-1-1T9:00'],
    ['ten fraction digits', '2026-01-01T09:00:00.1234567891'],
    ['an empty fraction', '2026-01-01T09:00:00.Z'],
    ['a fraction without seconds', '2026-01-01T09:00.5'],
    ['the basic format', '20260101T090000Z'],
    ['a week date', '2026-W01-1'],
    ['an ordinal date', '2026-001'],
    ['an expanded year', '+002026-01-01'],
    ['a tab for the T', '2026-01-01\t09:00'],
    ['a T without a time', '2026-01-01TZ'],
    ['another separator', '2026-01-01_09:00'],
    ['a zone name', '2026-01-01T09:00 Europe/Berlin'],
    ['a typographic minus', '2026-01-01T09:00\u221205:00'],
    ['a European date', '29.03.2026 00:00:00'],
  ])('refuses %s (%j)', (_what, input) => {
    expect(readIsoDateTime(input)).toBeNull();
  });

  it.each([null, undefined, 20260101, {}, ['2026-01-01']])('refuses a value that is not text: %j', (input) => {
    expect(readIsoDateTime(input)).toBeNull();
  });
});
