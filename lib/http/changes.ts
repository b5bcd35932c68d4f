// How a partial update applies its input (docs/api.md#requests): fields not sent stay as they are, and inside
// a free-form object (meta, options) a key sent as null is removed. Keys that could reach a
// prototype are never written, and a merged object must still be plain JSON data within the limits
// (lib/encoding/json-data.ts): 100 keys merged into 100 others are refused, naming the field.
import { JSON_DATA_LIMITS, jsonDataProblem } from '../encoding/json-data';
import { UNSAFE_KEYS } from '../encoding/limits';
import { Invalid } from './errors';

function fieldPath(field: string, path: (string | number)[]): string {
  return path.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : `${name}.${part}`), field);
}

/** The fields that were sent (undefined ones dropped). */
export function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Applies key changes to a free-form object: a key set to null (or undefined) is removed, others set;
 * no changes (null or undefined) leave it as it is. With `field`, the result is checked against the
 * limits of free-form data and a result over them is Invalid naming the field. */
export function mergeKeys(
  current: Record<string, unknown>,
  changes: Record<string, unknown> | null | undefined,
  field?: string,
): Record<string, unknown> {
  if (!changes) return current;
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(current ?? {})) if (!UNSAFE_KEYS.has(key)) next[key] = value;
  for (const [key, value] of Object.entries(changes)) {
    if (UNSAFE_KEYS.has(key)) continue;
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
  }
  if (field) {
    const problem = jsonDataProblem(next, JSON_DATA_LIMITS);
    if (problem) throw new Invalid(`${fieldPath(field, problem.path)} ${problem.message}`);
  }
  return next;
}

/** A free-form object as created: keys sent as null are not kept. */
export function withoutNulls(value: Record<string, unknown> | undefined): Record<string, unknown> {
  return mergeKeys({}, value);
}
