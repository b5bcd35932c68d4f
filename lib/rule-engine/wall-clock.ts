// Wall-clock readings of an instant in an IANA zone, for the time operators and moment formats. The
// offsets come from the on-call engine's zone engine (lib/oncall/zone-offsets.ts), the one place that
// knows zone transitions, so a router's "09:00 in Berlin" and a schedule's agree by construction.
import { isIanaZone } from '../oncall/time-zones';
import { zoneOffsets } from '../oncall/zone-offsets';

export interface WallClock {
  epoch: number;
  zone: string;
  year: number;
  /** 1..12 */
  month: number;
  day: number;
  /** ISO weekday: 1 Monday … 7 Sunday */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC. */
  offset: number;
}

/** A zone a rule may name: an IANA name (or alias) the platform knows, of a sane length. */
export function isKnownZone(name: unknown): name is string {
  return typeof name === 'string' && name.length > 0 && name.length <= 64 && isIanaZone(name);
}

/** Minutes east of UTC at `epoch`; NaN for a zone nobody knows (a rule stored before its check), so
 * every reading of it compares false instead of failing the evaluation. */
export function zoneOffset(name: string, epoch: number): number {
  if (!isKnownZone(name)) return Number.NaN;
  return zoneOffsets(name).offsetAt(epoch) / 60_000;
}

const abbreviationFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's short name at `epoch` as en-US writes it (`PDT`, `GMT+2`), for moment's `z` token. */
export function zoneAbbreviation(name: string, epoch: number): string {
  if (!isKnownZone(name)) return '';
  let format = abbreviationFormats.get(name);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' });
    if (abbreviationFormats.size >= 1000) abbreviationFormats.clear();
    abbreviationFormats.set(name, format);
  }
  return format.formatToParts(epoch).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

export function wallClock(zone: string, epoch: number): WallClock {
  const offset = zoneOffset(zone, epoch);
  const shifted = new Date(epoch + offset * 60_000);
  const weekday = shifted.getUTCDay();
  return {
    epoch,
    zone,
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    weekday: weekday === 0 ? 7 : weekday,
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
    offset,
  };
}

/** Milliseconds since local midnight on the wall clock. */
export function msOfDay(clock: WallClock): number {
  return ((clock.hour * 60 + clock.minute) * 60 + clock.second) * 1000 + clock.millisecond;
}
