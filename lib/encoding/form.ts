// application/x-www-form-urlencoded with Rails-style bracket nesting (docs/api.md#requests), for the API's
// request bodies (lib/http/form.ts) and the senders' webhook bodies (lib/integrations/adapters):
// `a[b]=1` → {a:{b:'1'}}, `a[]=1&a[]=2` → {a:['1','2']}, `a[][x]=1&a[][y]=2&a[][x]=3` → objects
// that start anew when a key repeats, `a[0][x]=1` → {a:[{x:'1'}]}. Repeated plain keys keep the last.
// Keys that could reach a prototype are dropped, and an index, depth or pair count past the body
// limits is refused before anything is built: `a[4294967294]=1` must not make a sparse array that a
// later pass walks slot by slot. Pure: each caller turns FormEncodingError into its own error.
import { BODY_LIMITS, UNSAFE_KEYS } from './limits';

/** A form body that breaks a limit, or (strict) holds a malformed percent escape. */
export class FormEncodingError extends Error {
  override name = 'FormEncodingError';
}

type Node = Record<string, unknown> | unknown[];

function splitKey(key: string): string[] {
  const first = key.indexOf('[');
  if (first < 0) return [key];
  const parts = [key.slice(0, first)];
  const re = /\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(key.slice(first)))) parts.push(match[1]);
  return parts;
}

function checkKey(key: string, parts: string[]): void {
  if (parts.length > BODY_LIMITS.maxDepth) {
    throw new FormEncodingError(`${parts[0]} is nested more than ${BODY_LIMITS.maxDepth} levels deep`);
  }
  for (const part of parts.slice(1)) {
    if (/^\d+$/.test(part) && Number(part) >= BODY_LIMITS.maxArrayLength) {
      throw new FormEncodingError(`${key.slice(0, 80)} names an array index over ${BODY_LIMITS.maxArrayLength - 1}`);
    }
  }
}

function assign(target: Node, parts: string[], value: string): void {
  const [head, ...rest] = parts;
  if (Array.isArray(target)) {
    if (head === '') {
      if (rest.length === 0) {
        target.push(value);
        return;
      }
      // `a[][x]`: continue the last object unless it already has this key, then start a new one.
      const last = target[target.length - 1] as Record<string, unknown> | undefined;
      const leaf = rest[0];
      const child = last && typeof last === 'object' && !Array.isArray(last) && !Object.hasOwn(last, leaf) ? last : {};
      if (child !== last) target.push(child);
      assign(child, rest, value);
      return;
    }
    // A named key under an array (`a[]` then `a[x]`) has no sensible place: it is dropped.
    if (!/^\d+$/.test(head)) return;
    const index = Number(head);
    if (rest.length === 0) {
      target[index] = value;
      return;
    }
    if (typeof target[index] !== 'object' || target[index] === null) target[index] = rest[0] === '' ? [] : {};
    assign(target[index] as Node, rest, value);
    return;
  }
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const next = rest[0];
  const wantsArray = next === '' || /^\d+$/.test(next);
  const existing = Object.hasOwn(target, head) ? target[head] : undefined;
  if (typeof existing !== 'object' || existing === null) target[head] = wantsArray ? [] : {};
  assign(target[head] as Node, rest, value);
}

function compact(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) if (value[i] !== undefined) out.push(compact(value[i]));
    return out;
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  }
  return value;
}

/** Throws on a key or value whose percent escapes do not decode (URLSearchParams would pass them on). */
function checkEscapes(text: string): void {
  for (const pair of text.split('&')) {
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch {
      throw new FormEncodingError(`malformed form encoding near "${pair.slice(0, 40)}"`);
    }
  }
}

/** Parses a form body; `strict` refuses malformed percent escapes instead of keeping them as text. */
export function parseBracketForm(text: string, options: { strict?: boolean } = {}): Record<string, unknown> {
  if (options.strict) checkEscapes(text);
  const root: Record<string, unknown> = {};
  let pairs = 0;
  for (const [key, value] of new URLSearchParams(text)) {
    if (!key) continue;
    if (++pairs > BODY_LIMITS.maxNodes) throw new FormEncodingError(`body has more than ${BODY_LIMITS.maxNodes} fields`);
    const parts = splitKey(key);
    if (parts.some((part) => UNSAFE_KEYS.has(part))) continue;
    checkKey(key, parts);
    assign(root, parts, value);
  }
  return compact(root) as Record<string, unknown>;
}
