// Datetime inputs (docs/api.md#requests): ISO 8601, and one without an offset is read on the wall clock of
// the object's time zone with the engine's rules (a time in a spring-forward gap takes the offset in
// force before it, a repeated time is the first of the two), so an input and the occurrences the
// engine computes from it always agree.
import { DAY_MS, daysFromCivil, daysInMonth } from '../oncall/civil-calendar';
import { zoneOffsets } from '../oncall/zone-offsets';

const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

interface Parts {
  local: number;
  /** Offset in ms (local − UTC) when the text carries one. */
  offset: number | null;
}

function readParts(raw: string, pattern: RegExp): Parts | null {
  const match = pattern.exec(raw.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  const local = daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  let offset: number | null = null;
  if (zone) {
    if (zone === 'Z' || zone === 'z') offset = 0;
    else {
      const sign = zone[0] === '-' ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      const hours = Number(digits.slice(0, 2));
      const minutes = Number(digits.slice(2) || '0');
      if (hours > 18 || minutes > 59) return null;
      offset = sign * (hours * 60 + minutes) * 60_000;
    }
  }
  return { local, offset };
}

/** An ISO 8601 datetime → epoch ms; without an offset it is a wall-clock time in `zone` (IANA). */
export function parseDateTimeIn(raw: unknown, zone: string): number | null {
  if (typeof raw !== 'string') return null;
  const parts = readParts(raw, ISO_PATTERN);
  if (!parts) return null;
  if (parts.offset !== null) return parts.local - parts.offset;
  return zoneOffsets(zone).localToUtc(parts.local);
}

export function isoOf(instant: number): string {
  return new Date(instant).toISOString();
}

export function unixSeconds(instant: number): number {
  return Math.floor(instant / 1000);
}
