// Raw body → data. The Content-Type decides when it is explicit (JSON, form); SNS and other senders
// label JSON as text/plain, so anything else is sniffed: JSON first, then form, then plain text,
// each only where the integration type's sender uses it.
import { UnreadablePayload } from './types';

export interface BodyFormats {
  form: boolean;
  text: boolean;
}

export type ParsedBody = { format: 'json' | 'form'; data: unknown } | { format: 'text'; text: string };

const FORM_LIKE = /^[^\s=&]+=[^\s]*$/;

export function parseBody(body: string, headers: Record<string, string>, accepts: BodyFormats): ParsedBody {
  const text = body.startsWith('\uFEFF') ? body.slice(1) : body;
  if (text.trim() === '') throw new UnreadablePayload('empty body');
  const contentType = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const trimmed = text.trim();
  const looksLikeJson = trimmed.startsWith('{') || trimmed.startsWith('[');

  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    return { format: 'json', data: parseJson(trimmed) };
  }

  if (contentType === 'application/x-www-form-urlencoded') {
    // Some senders label a JSON body as a form post; the body says what it is.
    if (looksLikeJson) {
      const json = tryParseJson(trimmed);
      if (json.ok) return { format: 'json', data: json.value };
    }
    if (!accepts.form) throw new UnreadablePayload('form-encoded bodies are not accepted by this integration type');
    return { format: 'form', data: parseFormBody(trimmed) };
  }

  if (looksLikeJson) {
    const json = tryParseJson(trimmed);
    if (json.ok) return { format: 'json', data: json.value };
    if (!accepts.text) throw new UnreadablePayload(`invalid JSON: ${json.error}`);
    return { format: 'text', text };
  }
  if (accepts.form && FORM_LIKE.test(trimmed)) return { format: 'form', data: parseFormBody(trimmed) };
  if (accepts.text) return { format: 'text', text };
  throw new UnreadablePayload('body is not JSON');
}

function parseJson(text: string): unknown {
  const json = tryParseJson(text);
  if (!json.ok) throw new UnreadablePayload(`invalid JSON: ${json.error}`);
  return json.value;
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * application/x-www-form-urlencoded with the bracket nesting Rails and PHP senders use
 * (`meta[incident]=true`, `tags[]=a&tags[]=b`). Repeated plain keys keep the last value.
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const rawKey = at === -1 ? pair : pair.slice(0, at);
    const rawValue = at === -1 ? '' : pair.slice(at + 1);
    const key = decodeComponent(rawKey);
    const value = decodeComponent(rawValue);
    assignPath(result, splitKey(key), value);
  }
  return result;
}

function decodeComponent(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new UnreadablePayload(`malformed form encoding near "${raw.slice(0, 40)}"`);
  }
}

/** `a[b][]` → ['a', 'b', ''] (an empty segment appends to an array). */
function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return [key];
  const segments = [key.slice(0, open)];
  const rest = key.slice(open);
  const re = /\[([^\]]*)\]/g;
  let consumed = 0;
  for (let match = re.exec(rest); match; match = re.exec(rest)) {
    if (match.index !== consumed) return [key];
    segments.push(match[1]);
    consumed = match.index + match[0].length;
  }
  return consumed === rest.length ? segments : [key];
}

function assignPath(target: Record<string, unknown>, path: string[], value: string): void {
  if (path.some((segment) => UNSAFE_KEYS.has(segment))) return;
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    const last = i === path.length - 1;
    const nextIsAppend = !last && path[i + 1] === '';
    if (Array.isArray(node)) {
      if (last) {
        node.push(value);
        return;
      }
      const child: Record<string, unknown> | unknown[] = nextIsAppend ? [] : {};
      node.push(child);
      node = child;
      continue;
    }
    if (segment === '') return; // `[]` under an object: nothing sensible to do
    if (last) {
      node[segment] = value;
      return;
    }
    const existing: unknown = node[segment];
    const fits: boolean = nextIsAppend ? Array.isArray(existing) : isPlainObject(existing);
    const child: Record<string, unknown> | unknown[] = fits
      ? (existing as Record<string, unknown> | unknown[])
      : nextIsAppend
        ? []
        : {};
    node[segment] = child;
    node = child;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
