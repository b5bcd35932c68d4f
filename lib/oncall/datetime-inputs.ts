// Datetime inputs (docs/api.md#requests) of every object with a time zone, and of the queries that
// read times in UTC: an ISO 8601 datetime with an offset is that instant; one without is a wall-clock
// time in the zone, converted with the on-call engine's rules (a time in a spring-forward gap takes the
// offset in force before it, a repeated time is the first of the two), so an input and the
// occurrences the engine computes from it always agree.
import { readIsoDateTime } from '../encoding/iso-datetime';
import { zoneOffsets } from './zone-offsets';

/** An ISO 8601 datetime → epoch ms; without an offset it is a wall-clock time in `zone` (IANA). */
export function parseDateTimeIn(raw: unknown, zone: string): number | null {
  const reading = readIsoDateTime(raw);
  if (!reading) return null;
  if (reading.offset !== null) return reading.wall - reading.offset;
  return zoneOffsets(zone).localToUtc(reading.wall);
}
