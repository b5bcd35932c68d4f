// Free-form objects (meta, options, sso, notification templates, a sender's additional data) are
// stored as they come, so they must be plain JSON data the store can hold and a reader can walk:
// strings, finite numbers, booleans, null, arrays and plain objects, not too deep, not too wide, not
// too large. Keys that could reach a prototype are dropped (never refused: a body may carry them by
// accident). Pure: callers turn a problem into their own error, naming the field.
import { numberProblem, UNSAFE_KEYS } from './limits';

export interface JsonDataLimits {
  /** Nesting of objects and arrays inside the value (the value itself is depth 1). */
  maxDepth: number;
  /** Keys of one object. */
  maxKeys: number;
  /** Elements of one array. */
  maxItems: number;
  /** The whole value as JSON text, in UTF-8 bytes. */
  maxBytes: number;
}

export const JSON_DATA_LIMITS: JsonDataLimits = { maxDepth: 10, maxKeys: 100, maxItems: 1_000, maxBytes: 16 * 1024 };

export interface JsonDataProblem {
  /** Where, inside the value: keys and indexes. */
  path: (string | number)[];
  /** What, without the field's name: "must be a finite number". */
  message: string;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The first problem of `value` as plain JSON data within `limits`, or null. Iterative, so a deep
 * value cannot exhaust the stack; unsafe keys are not looked at (cleanJsonData drops them).
 */
export function jsonDataProblem(value: unknown, limits: JsonDataLimits = JSON_DATA_LIMITS): JsonDataProblem | null {
  const stack: { value: unknown; path: (string | number)[]; depth: number }[] = [{ value, path: [], depth: 1 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    switch (typeof current) {
      case 'string':
      case 'boolean':
        continue;
      case 'number': {
        const problem = numberProblem(current);
        if (problem) return { path, message: problem };
        continue;
      }
      case 'object':
        break;
      default:
        return { path, message: 'must be JSON data (text, numbers, true/false, null, lists and objects)' };
    }
    if (current === null) continue;
    if (depth > limits.maxDepth) return { path, message: `is nested more than ${limits.maxDepth} levels deep` };
    if (Array.isArray(current)) {
      if (current.length > limits.maxItems) return { path, message: `must have at most ${limits.maxItems} entries` };
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...path, i], depth: depth + 1 });
      continue;
    }
    if (!isPlainObject(current)) return { path, message: 'must be JSON data (text, numbers, true/false, null, lists and objects)' };
    const keys = Object.keys(current).filter((key) => !UNSAFE_KEYS.has(key));
    if (keys.length > limits.maxKeys) return { path, message: `must have at most ${limits.maxKeys} keys` };
    // An empty key is no name at all, and not every store keeps one (moto loses the map).
    if (keys.includes('')) return { path, message: 'must not have an empty key' };
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (current as Record<string, unknown>)[keys[i]], path: [...path, keys[i]], depth: depth + 1 });
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(cleanJsonData(value)) ?? '', 'utf8');
  if (bytes > limits.maxBytes) return { path: [], message: `must be at most ${Math.floor(limits.maxBytes / 1024)} KB as JSON` };
  return null;
}

/**
 * A copy of JSON data without the keys that could reach a prototype, at every depth. Only call it on
 * data jsonDataProblem accepted (it recurses as deep as the data is).
 */
export function cleanJsonData<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cleanJsonData(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!UNSAFE_KEYS.has(key)) copy[key] = cleanJsonData(item);
  }
  return copy as T;
}

/**
 * Data from a sender, made storable whatever it holds, for the fields kept as they came (a webhook's
 * `meta` and `additional_data`): nothing a sender sends may fail the alert. Keys that could reach a
 * prototype are dropped; numbers the store cannot hold (1e400 parses to Infinity, 10^29 loses its
 * digits, 1e-200 is below the store's range) are kept as their text; what is nested deeper than
 * `maxDepth` is kept as its JSON text; values that are not JSON data become null.
 */
export function storableJson(value: unknown, maxDepth = JSON_DATA_LIMITS.maxDepth, depth = 1): unknown {
  // (Empty keys are dropped too: the request, kept whole in its log, still has them.)
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return numberProblem(value) ? String(value) : value;
  if (typeof value !== 'object') return null;
  if (depth > maxDepth) {
    try {
      return JSON.stringify(value);
    } catch {
      return '[nested too deeply to keep]';
    }
  }
  if (Array.isArray(value)) return value.map((item) => storableJson(item === undefined ? null : item, maxDepth, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key !== '' && !UNSAFE_KEYS.has(key) && item !== undefined) copy[key] = storableJson(item, maxDepth, depth + 1);
  }
  return copy;
}
