// Reading event inputs that both interfaces and the event operations share.
import { parseId } from '../ids';
import { resolveTimeZone } from '../oncall/time-zones';
import { parseDateTimeIn } from './datetimes';

/** Schedule ids as sent, read leniently: who may create an event is decided before its body is checked. */
export function rawIdList(value: unknown, kind: 'schedule'): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return list.map((v) => parseId(kind, v)).filter((id): id is string => id !== null);
}

export function zoneOrMessage(name: string, field: string, messages: string[]): string | null {
  const zone = resolveTimeZone(name);
  if (!zone) messages.push(`${field} is not a known time zone: ${name}`);
  return zone;
}

export function instantOrMessage(raw: string, zone: string, field: string, messages: string[]): number | null {
  const instant = parseDateTimeIn(raw, zone);
  if (instant === null) messages.push(`${field} must be an ISO 8601 datetime (e.g. 2026-03-29T09:00:00+02:00)`);
  return instant;
}
