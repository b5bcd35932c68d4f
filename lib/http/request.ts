// The normalized request every route handler receives, built from an API Gateway HTTP API
// (payload 2.0) event, whether API Gateway or the local runtime produced it.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Principal } from './principal';
import { BadRequest, Invalid, PayloadTooLarge } from './errors';
import { checkBody } from './body-limits';
import { parseForm } from './form';

export const MAX_BODY_BYTES = 256 * 1024;

/** Which interface a request came through: everything under /api/v4, or the earlier one. */
export type ApiInterface = 'v4' | 'earlier';

export interface ApiRequest {
  iface: ApiInterface;
  method: string;
  path: string;
  routeKey: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string>;
  rawBody: string;
  /** The body's bytes exactly as received (API Gateway base64-encodes binary bodies). */
  bodyBytes(): Buffer;
  /** The parsed body: JSON or form-encoded; {} when empty. Parsed on first use, so GET/DELETE and
   * the action POSTs never fail on a body they ignore. */
  body(): Record<string, unknown>;
  principal: Principal;
  sourceIp: string;
  receivedAt: number;
  /** The API's domain as API Gateway saw it (requestContext.domainName); '' when unknown. */
  domainName: string;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body that is not JSON (an HTML page), sent as it is with its content type. */
  text?: { contentType: string; body: string };
}

export function interfaceOf(path: string): ApiInterface {
  return path === '/api/v4' || path.startsWith('/api/v4/') ? 'v4' : 'earlier';
}

export function rawBodyOf(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

function parseBody(raw: string, contentType: string): Record<string, unknown> {
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLarge();
  if (raw.trim() === '') return {};
  if (contentType.includes('application/x-www-form-urlencoded')) return checkBody(parseForm(raw));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BadRequest('Malformed JSON in request body');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Invalid('request body must be a JSON object');
  }
  return checkBody(parsed as Record<string, unknown>);
}

export function toApiRequest(event: APIGatewayProxyEventV2): ApiRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const rawBody = rawBodyOf(event);
  let parsed: Record<string, unknown> | undefined;
  const path = event.rawPath || '/';
  return {
    iface: interfaceOf(path),
    method: event.requestContext?.http?.method ?? 'GET',
    path,
    routeKey: event.routeKey,
    // Decoded once, by API Gateway (an HTTP API hands its Lambda path parameters decoded) or by the
    // local server, which does the same: decoding here again would turn a literal `%41` into `A`.
    params: Object.fromEntries(Object.entries(event.pathParameters ?? {}).map(([k, v]) => [k, v ?? ''])),
    query: new URLSearchParams(event.rawQueryString ?? ''),
    headers,
    rawBody,
    bodyBytes() {
      if (!event.body) return Buffer.alloc(0);
      return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
    },
    body() {
      parsed ??= parseBody(rawBody, headers['content-type'] ?? '');
      return parsed;
    },
    principal: undefined as unknown as Principal,
    sourceIp: event.requestContext?.http?.sourceIp ?? '',
    receivedAt: event.requestContext?.timeEpoch ?? Date.now(),
    domainName: event.requestContext?.domainName ?? '',
  };
}
