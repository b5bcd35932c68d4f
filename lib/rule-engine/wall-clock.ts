// Wall-clock readings of an instant in an IANA zone, through luxon's zone data. The zone offset is
// cached per zone and minute: offsets change only at whole-minute instants in current zone data, and
// one evaluation reads the same few zones, so a rule set with time conditions stays fast.
import { IANAZone } from 'luxon';

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

const zones = new Map<string, IANAZone>();
const offsetCache = new Map<string, { minute: number; offset: number }>();

const knownZones = new Map<string, boolean>();

export function isKnownZone(name: unknown): name is string {
  if (typeof name !== 'string' || name.length > 64) return false;
  let known = knownZones.get(name);
  if (known === undefined) {
    known = IANAZone.isValidZone(name);
    if (knownZones.size > 1000) knownZones.clear();
    knownZones.set(name, known);
  }
  return known;
}

function zoneFor(name: string): IANAZone {
  let zone = zones.get(name);
  if (!zone) {
    zone = IANAZone.create(name);
    if (zones.size > 1000) zones.clear();
    zones.set(name, zone);
  }
  return zone;
}

export function zoneOffset(name: string, epoch: number): number {
  const minute = Math.floor(epoch / 60_000);
  const cached = offsetCache.get(name);
  if (cached && cached.minute === minute) return cached.offset;
  const offset = zoneFor(name).offset(epoch);
  if (offsetCache.size > 1000) offsetCache.clear();
  offsetCache.set(name, { minute, offset });
  return offset;
}

export function zoneAbbreviation(name: string, epoch: number): string {
  return zoneFor(name).offsetName(epoch, { format: 'short', locale: 'en-US' }) ?? '';
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
