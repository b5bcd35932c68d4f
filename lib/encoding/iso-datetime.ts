// The one reader of ISO 8601 datetime inputs (docs/api.md#requests), for every field and query
// parameter that takes one: the extended calendar form `YYYY-MM-DD`, optionally a time
// (`hh:mm`, `hh:mm:ss`, a fraction of up to nine digits after `.` or `,`) after `T` or a space, and an
// optional offset (`Z`, `±hh`, `±hhmm`, `±hh:mm`). `T` and `Z` may be lower case, as RFC 3339 §5.6
// allows. Values that do not exist on a calendar or a clock (February 30, 24:00, a 60th second, an
// offset of more than 18 hours or with 60 minutes) are refused rather than rolled over into another instant.
// Which zone a reading without an offset belongs to is the caller's decision, so this file only
// reads text: lib/oncall/datetime-inputs.ts turns a wall-clock reading into an instant.

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/** The most hours an offset may name (the real ones stay within −12:00 and +14:00). */
const MAX_OFFSET_HOURS = 18;

export interface IsoDateTime {
  /** The wall-clock reading as if it were UTC (epoch ms of the same digits read with offset 0). */
  wall: number;
  /** The offset the text carries (ms, local − UTC), or null when it carries none. */
  offset: number | null;
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function offsetOf(text: string): number | null {
  if (text === 'Z' || text === 'z') return 0;
  const sign = text[0] === '-' ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > MAX_OFFSET_HOURS || minutes > 59) return null;
  const magnitude = (hours * 60 + minutes) * 60_000;
  // `-00:00` is offset zero too (a −0 would surprise a caller comparing offsets).
  return magnitude === 0 ? 0 : sign * magnitude;
}

/** Reads an ISO 8601 datetime (surrounding white space ignored); null when `raw` is not one. */
export function readIsoDateTime(raw: unknown): IsoDateTime | null {
  if (typeof raw !== 'string') return null;
  const match = ISO_DATETIME.exec(raw.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offset = zone === undefined ? null : offsetOf(zone);
  if (zone !== undefined && offset === null) return null;
  const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  const midnight = new Date(0).setUTCFullYear(year, month - 1, day);
  return { wall: midnight + ((hour * 60 + minute) * 60 + second) * 1000 + millis, offset };
}
