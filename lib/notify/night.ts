// Whether a page came at night for the person paged (the pages report's night pages, contract §14):
// their wall clock between 22:00 and 07:00, read in their time zone (friendly or IANA name; one that
// no longer resolves reads as UTC, the default zone of a new person).
import { resolveTimeZone } from '../oncall/time-zones';
import { zoneOffsets } from '../oncall/zone-offsets';

const HOUR_MS = 3_600_000;
const NIGHT_FROM_HOUR = 22;
const NIGHT_UNTIL_HOUR = 7;

export function isNightIn(timeZone: string, at: number): boolean {
  const zone = resolveTimeZone(timeZone) ?? 'UTC';
  const local = at + zoneOffsets(zone).offsetAt(at);
  const hour = ((Math.floor(local / HOUR_MS) % 24) + 24) % 24;
  return hour >= NIGHT_FROM_HOUR || hour < NIGHT_UNTIL_HOUR;
}
