// The span of a maintenance window (docs/api.md#requests): its datetimes are read like every other
// datetime input (lib/oncall/datetime-inputs.ts), without an offset in the window's time zone.
import { Invalid } from '../http/errors';
import { parseDateTimeIn } from '../oncall/datetime-inputs';
import { resolveTimeZone } from '../oncall/time-zones';
import type { MaintenanceWindowRecord } from './records';

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
    const ms = parseDateTimeIn(raw, zone);
    if (ms === null) messages.push(`${field} must be an ISO 8601 datetime`);
    return ms ?? Number.NaN;
  };
  const start = read('start_datetime');
  const end = read('end_datetime');
  if (messages.length > 0) throw new Invalid(messages);
  if (end <= start) throw new Invalid('end_datetime must be after start_datetime');
  return { start, end, zone };
}
