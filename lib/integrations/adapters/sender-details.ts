// What a sender says about a problem beyond title and description, kept on the alert as
// `additional_data` entries `{type, label, value}` (api-earlier.md "Alert"), capped in size so one
// chatty sender cannot bloat every alert, and never dropped silently: a cut value or a dropped
// entry leaves a marker that points at the stored request. Pure.
import type { AlertFields } from './types';

export type Datum = NonNullable<AlertFields['additionalData']>[number];

/** Caps per alert: entries, bytes of one value, bytes of all labels and values together. */
export const DETAIL_LIMITS = { entries: 50, valueBytes: 2048, totalBytes: 16 * 1024 } as const;

const URL_RE = /^https?:\/\/\S+$/i;
const IMAGE_KEY = /image|snapshot|screenshot|graph/i;

/** One entry, its type read from the value: link (an http(s) URL), image (a URL under an image-ish
 * label), string, number, boolean, json. Absent for null, undefined and blank strings. */
export function datum(label: string, value: unknown, type?: string): Datum | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return undefined;
    if (type) return { type, label, value: text };
    if (URL_RE.test(text)) return { type: IMAGE_KEY.test(label) ? 'image' : 'link', label, value: text };
    return { type: 'string', label, value: text };
  }
  if (type) return { type, label, value };
  if (typeof value === 'number') return Number.isFinite(value) ? { type: 'number', label, value } : undefined;
  if (typeof value === 'boolean') return { type: 'boolean', label, value };
  if (Array.isArray(value) && value.length === 0) return undefined;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return undefined;
  return { type: 'json', label, value };
}

/** Entries for the values present, in order. */
export function details(entries: Array<Datum | undefined>): Datum[] {
  return entries.filter((entry): entry is Datum => entry !== undefined);
}

const looseKey = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, '');

/**
 * Every top-level field of a payload except those already on the alert: the `used` keys (compared
 * without case, `_` or `-`, as senders template them) and string values equal to one of `sameAs`
 * (a field that only repeats the title or the description).
 */
export function otherFields(payload: Record<string, unknown>, used: Iterable<string>, sameAs: Array<string | undefined> = []): Datum[] {
  const skip = new Set([...used].map(looseKey));
  const repeated = new Set(sameAs.filter((value): value is string => value !== undefined).map((value) => value.trim()));
  return details(
    Object.entries(payload)
      .filter(([key, value]) => !skip.has(looseKey(key)) && !(typeof value === 'string' && repeated.has(value.trim())))
      .map(([key, value]) => datum(key, value)),
  );
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** The first `max` bytes of a string, cut on a character boundary. */
function cutTo(text: string, max: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= max) return text;
  let end = max;
  while (end > 0 && (buffer[end] & 0xc0) === 0x80) end--; // not inside a multi-byte character
  return buffer.subarray(0, end).toString('utf8');
}

/** One value within the per-value cap; JSON that is too large becomes its cut text. */
function capValue(entry: Datum): Datum {
  const text = typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value);
  const size = bytesOf(text);
  if (size <= DETAIL_LIMITS.valueBytes) return entry;
  const marker = ` … [truncated: ${size} bytes in all; the full value is in the stored request]`;
  return { type: 'string', label: entry.label, value: cutTo(text, DETAIL_LIMITS.valueBytes - bytesOf(marker)) + marker };
}

const sizeOf = (entry: Datum) =>
  bytesOf(entry.label) + bytesOf(typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value));

/**
 * The entries within the caps, in order: each value cut to its cap, and once the count or the total
 * would pass its cap, the rest replaced by one `truncated` entry saying how much was left out.
 */
export function capDetails(entries: Datum[]): Datum[] {
  const kept: Datum[] = [];
  let total = 0;
  for (let index = 0; index < entries.length; index++) {
    const entry = capValue(entries[index]);
    const size = sizeOf(entry);
    const last = index === entries.length - 1;
    // Room is kept for the marker unless this is the last entry.
    const roomLeft = kept.length < (last ? DETAIL_LIMITS.entries : DETAIL_LIMITS.entries - 1);
    if (!roomLeft || total + size > DETAIL_LIMITS.totalBytes - (last ? 0 : 200)) {
      const rest = entries.slice(index);
      const restBytes = rest.reduce((sum, e) => sum + sizeOf(e), 0);
      kept.push({
        type: 'string',
        label: 'truncated',
        value: `${rest.length} more detail(s) (${restBytes} bytes) not kept on the alert; the full request is in its source log`,
      });
      return kept;
    }
    kept.push(entry);
    total += size;
  }
  return kept;
}

/** Entries of `extra` whose label is not taken yet (capture_additional_data over the adapter's own). */
export function mergeDetails(base: Datum[], extra: Datum[]): Datum[] {
  const labels = new Set(base.map((entry) => entry.label));
  return [...base, ...extra.filter((entry) => !labels.has(entry.label))];
}
