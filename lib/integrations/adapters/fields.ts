// Small readers shared by the adapters: senders send numbers where strings are meant, mix key
// cases, and use their own severity words. Everything here is pure.
import { UnreadablePayload, type AlertFields, type Urgency } from './types';

export type Payload = Record<string, unknown>;

export const URGENCIES: readonly Urgency[] = ['silent', 'low', 'medium', 'high', 'critical'];

export const UNTITLED = 'Untitled alert';
const MAX_DERIVED_TITLE = 255;

export function isRecord(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The payload as an object, or UnreadablePayload naming what the sender should have sent. */
export function requireObject(value: unknown, what: string): Payload {
  if (!isRecord(value)) throw new UnreadablePayload(`expected ${what} (a JSON object)`);
  return value;
}

/** A scalar as a trimmed non-empty string; objects, arrays, null and blanks are absent. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/** Like `text` but keeps the inner line breaks and spacing of long free text. */
export function longText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.replace(/^\s+|\s+$/g, '');
  return text(value);
}

export function firstText(...values: unknown[]): string | undefined {
  for (const value of values) {
    const found = text(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function firstLongText(...values: unknown[]): string | undefined {
  for (const value of values) {
    const found = longText(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Nested lookup by path; absent when any step is not an object. */
export function dig(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const key of path) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Case-insensitive key lookup: the exact key wins, then any spelling of it (`Title`, `TITLE`).
 * `loose` also ignores `_`/`-` so `ALERT_ID`, `alert_id` and `alertId` are one key.
 */
export function getKey(payload: unknown, key: string, loose = false): unknown {
  if (!isRecord(payload)) return undefined;
  if (Object.hasOwn(payload, key) && payload[key] !== undefined && payload[key] !== null) return payload[key];
  const wanted = normalizeKey(key, loose);
  for (const [candidate, value] of Object.entries(payload)) {
    if (value !== undefined && value !== null && normalizeKey(candidate, loose) === wanted) return value;
  }
  return undefined;
}

export function normalizeKey(key: string, loose: boolean): string {
  const lower = key.toLowerCase();
  return loose ? lower.replace(/[_\-\s]/g, '') : lower;
}

/**
 * Severity words of monitoring tools → urgency (docs/api.md#integrations, prometheus): critical → critical;
 * high, error, page → high; warning, warn, medium → medium; info, low → low; else the fallback.
 */
export function severityToUrgency(severity: unknown, fallback: Urgency): Urgency {
  switch (text(severity)?.toLowerCase()) {
    case 'critical':
      return 'critical';
    case 'high':
    case 'error':
    case 'page':
      return 'high';
    case 'warning':
    case 'warn':
    case 'medium':
      return 'medium';
    case 'info':
    case 'low':
      return 'low';
    default:
      return fallback;
  }
}

/** An urgency named exactly (any case), or the fallback. */
export function parseUrgency(value: unknown, fallback: Urgency): Urgency {
  const wanted = text(value)?.toLowerCase();
  return URGENCIES.find((urgency) => urgency === wanted) ?? fallback;
}

/** The lower of two urgencies: a warning never pages louder than the integration is set to. */
export function capUrgency(urgency: Urgency, cap: Urgency): Urgency {
  return URGENCIES.indexOf(urgency) <= URGENCIES.indexOf(cap) ? urgency : cap;
}

/** Tags from an array or a delimited string, trimmed, blanks dropped, first occurrence kept. */
export function stringList(value: unknown, separator: RegExp = /,/): string[] | undefined {
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(separator) : [value];
  const list = [...new Set(raw.map(text).filter((item): item is string => item !== undefined))];
  return list.length > 0 ? list : undefined;
}

/** true/false and the words form-encoded senders use for them; absent when it is neither. */
export function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  switch (text(value)?.toLowerCase()) {
    case 'true':
    case '1':
    case 'yes':
    case 'on':
      return true;
    case 'false':
    case '0':
    case 'no':
    case 'off':
      return false;
    default:
      return undefined;
  }
}

/** A title when the sender gave none: the description's first line, else "Untitled alert". */
export function fallbackTitle(description: string | undefined): string {
  const firstLine = description
    ?.split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line !== '');
  if (!firstLine) return UNTITLED;
  return firstLine.length > MAX_DERIVED_TITLE ? `${firstLine.slice(0, MAX_DERIVED_TITLE - 1)}…` : firstLine;
}

/** Drops absent optional fields so actions compare and serialize cleanly. */
export function alertFields(fields: AlertFields): AlertFields {
  const alert: AlertFields = { title: fields.title, urgency: fields.urgency };
  if (fields.description !== undefined) alert.description = fields.description;
  if (fields.tags && fields.tags.length > 0) alert.tags = fields.tags;
  if (fields.dedupKeys && fields.dedupKeys.length > 0) alert.dedupKeys = fields.dedupKeys;
  if (fields.meta && Object.keys(fields.meta).length > 0) alert.meta = fields.meta;
  if (fields.additionalData && fields.additionalData.length > 0) alert.additionalData = fields.additionalData;
  return alert;
}

/** Lines `Label: value` for the values present, or absent when none is. */
export function labelledLines(entries: [string, string | undefined][]): string | undefined {
  const lines = entries.filter(([, value]) => value !== undefined).map(([label, value]) => `${label}: ${value}`);
  return lines.length > 0 ? lines.join('\n') : undefined;
}
