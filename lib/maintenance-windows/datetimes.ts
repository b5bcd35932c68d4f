// Datetime inputs of maintenance windows (docs/api.md#requests): ISO 8601; one without an offset is a wall-clock
// time in the window's time zone, converted with the on-call engine's rules (a time in a
// spring-forward gap takes the offset before the gap, a repeated time is the first of the two).
import { Invalid } from '../http/errors';
import { resolveTimeZone } from '../oncall/time-zones';
import { zoneOffsets } from '../oncall/zone-offsets';
import type { MaintenanceWindowRecord } from './records';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Epoch ms of `raw` read in `zone` (an IANA zone); null when it is not an ISO 8601 datetime. */
export function parseDateTimeInZone(raw: string, zone: string): number | null {
  const match = ISO.exec(raw.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0', offset] = match;
  const parts = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  const ms = Math.floor(Number(`0.${fraction}`) * 1000);
  const wall = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], ms);
  // Date.UTC rolls 2026-02-31 over into March; a date that does not exist is not a datetime.
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== parts[0] ||
    check.getUTCMonth() !== parts[1] - 1 ||
    check.getUTCDate() !== parts[2] ||
    check.getUTCHours() !== parts[3] ||
    check.getUTCMinutes() !== parts[4] ||
    check.getUTCSeconds() !== parts[5]
  ) {
    return null;
  }
  if (offset === undefined) return zoneOffsets(zone).localToUtc(wall);
  if (offset.toUpperCase() === 'Z') return wall;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return wall - sign * minutes * 60_000;
}

/** Reads start/end in the window's zone; a value not given keeps the stored instant. */
export function windowSpan(
  input: { start_datetime?: string; end_datetime?: string; time_zone?: string },
  current?: MaintenanceWindowRecord,
): { start: number; end: number; zone: string } {
  const messages: string[] = [];
  const zoneName = input.time_zone ?? current?.time_zone ?? 'UTC';
  const zone = resolveTimeZone(zoneName);
  if (!zone) throw new Invalid(`time_zone is not a known time zone: ${zoneName}`);
  const read = (field: 'start_datetime' | 'end_datetime'): number => {
    const raw = input[field];
    if (raw === undefined) return Date.parse(current![field]);
    const ms = parseDateTimeInZone(raw, zone);
    if (ms === null) messages.push(`${field} must be an ISO 8601 datetime`);
    return ms ?? Number.NaN;
  };
  const start = read('start_datetime');
  const end = read('end_datetime');
  if (messages.length > 0) throw new Invalid(messages);
  if (end <= start) throw new Invalid('end_datetime must be after start_datetime');
  return { start, end, zone };
}
