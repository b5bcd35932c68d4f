// Reading event inputs that both interfaces and the event operations share.
import { Invalid } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import { resolveTimeZone } from '../oncall/time-zones';
import { parseDateTimeIn } from '../oncall/datetime-inputs';
import { ianaZoneOf, type EventRecord } from './records';
import { actionTimeInput } from './schemas';

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

/** Unix seconds (number or numeric text), or an ISO datetime read in `zone`. */
export function unixOrMessage(raw: number | string, zone: string, field: string, messages: string[]): number | null {
  if (typeof raw === 'number') return Math.round(raw * 1000);
  if (/^-?\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
  const instant = parseDateTimeIn(raw, zone);
  if (instant === null) messages.push(`${field} must be a Unix timestamp in seconds`);
  return instant;
}

/** The earlier interface's schedule_id list, each a schedule id. */
export function scheduleIdsOrMessages(raw: string[], messages: string[]): string[] {
  const ids: string[] = [];
  for (const value of raw) {
    const id = parseId('schedule', value);
    if (id) ids.push(id);
    else messages.push(`schedule_id contains an id that is not a schedule: ${value}`);
  }
  return ids;
}

/** The occurrence an event operation names (action_time), read in the event's time zone. */
export function actionTimeOf(event: EventRecord, body: unknown): number {
  const input = parseInput(actionTimeInput, body);
  const instant = parseDateTimeIn(input.action_time, ianaZoneOf(event));
  if (instant === null) throw new Invalid('action_time must be an ISO 8601 datetime (e.g. 2026-03-29T09:00:00+02:00)');
  return instant;
}

export function noOccurrence(instant: number): Invalid {
  return new Invalid(`action_time ${new Date(instant).toISOString()} is not the start of an occurrence of this event`);
}
