// Raw body → data. The Content-Type decides when it is explicit (JSON, form); SNS and other senders
// label JSON as text/plain, so anything else is sniffed: JSON first, then form, then plain text,
// each only where the integration type's sender uses it.
import { FormEncodingError, parseBracketForm } from '../../encoding/form';
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

/**
 * application/x-www-form-urlencoded with the bracket nesting Rails and PHP senders use
 * (`meta[incident]=true`, `tags[]=a&tags[]=b`): the one form parser (lib/encoding/form.ts), strict
 * about percent escapes; a body it refuses is unreadable.
 */
export function parseFormBody(text: string): Record<string, unknown> {
  try {
    return parseBracketForm(text, { strict: true });
  } catch (error) {
    if (error instanceof FormEncodingError) throw new UnreadablePayload(error.message);
    throw error;
  }
}
