// One guarded HTTP client for automations and outgoing webhooks (issue 11, docs/api.md#automations):
// - the SSRF guard: an IP-literal host is checked before anything is sent; a host name is resolved
//   by a lookup hook that checks every address it returns and hands the socket only checked ones
//   (no DNS-rebinding gap); the connected socket's remote address is checked once more. A refusal
//   throws OutboundTargetRefused and sends nothing to the target. `allowPrivateTargets` (the
//   deployment's ALLOW_PRIVATE_AUTOMATION_TARGETS) turns the guard off; this module never reads
//   configuration itself.
// - one deadline for the whole exchange (10 s by default; outgoing webhooks pass 5 s), DNS and
//   redirects included;
// - redirects: up to 3, only to the same host name (http → https allowed, https → http not); a
//   redirect elsewhere is not followed and is reported on the result;
// - the response body is read up to a bound (2 KiB by default) and the connection dropped;
// - basic auth is sent as a header and never appears in anything returned or thrown.
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import { canonicalAddress, forbiddenReason } from './address-guard';
import { OutboundRequestInvalid, OutboundTargetRefused } from './errors';
import type { Resolver } from './guarded-lookup';
import { guardedLookup, systemResolver } from './guarded-lookup';

export type ParamValue = string | number | boolean | null | undefined;

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string | number | boolean>;
  /** Added to the URL's query string. */
  params?: Record<string, ParamValue | ParamValue[]>;
  /** A text is sent as is; anything else as JSON, or form-encoded when the content-type says so. Not sent with GET or HEAD. */
  data?: unknown;
  auth?: { username: string; password?: string | null } | null;
}

export interface OutboundOptions {
  timeoutMs?: number;
  allowPrivateTargets?: boolean;
  maxRedirects?: number;
  maxExcerptBytes?: number;
  /** How host names are resolved (tests replace it); the guard applies to whatever it returns. */
  resolve?: Resolver;
}

export interface OutboundResult {
  /** The URL last requested, without credentials. */
  url: string;
  method: string;
  status: number | null;
  duration_ms: number;
  headers: Record<string, string>;
  excerpt: string;
  truncated: boolean;
  /** URLs followed after the first, in order. */
  redirects: string[];
  remote_address: string | null;
  error?: { code: 'timeout' | 'redirect_refused' | 'too_many_redirects' | 'network'; message: string };
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const WEBHOOK_TIMEOUT_MS = 5_000;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const DROPPED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);
const USER_AGENT = 'oncall-service-outbound/1.0';

interface Prepared {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  secrets: string[];
}

function prepare(request: OutboundRequest): Prepared {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new OutboundRequestInvalid('url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRequestInvalid('url must be http or https');
  const secrets: string[] = [];
  let auth = request.auth ?? null;
  if (url.username || url.password) {
    auth ??= { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
    url.username = '';
    url.password = '';
  }
  const method = (request.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) throw new OutboundRequestInvalid(`method must be one of ${[...METHODS].join(', ')}`);
  for (const [key, value] of Object.entries(request.params ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined) url.searchParams.append(key, String(item));
    }
  }
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: '*/*' };
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower)) continue;
    try {
      http.validateHeaderName(lower);
      http.validateHeaderValue(lower, String(value));
    } catch {
      throw new OutboundRequestInvalid(`header ${JSON.stringify(name.slice(0, 64))} has a name or value that cannot be sent`);
    }
    headers[lower] = String(value);
  }
  if (auth) {
    const password = auth.password ?? '';
    if (password) secrets.push(password);
    const token = Buffer.from(`${auth.username}:${password}`).toString('base64');
    secrets.push(token);
    headers.authorization = `Basic ${token}`;
  }
  let body: Buffer | null = null;
  if (request.data !== undefined && request.data !== null && method !== 'GET' && method !== 'HEAD') {
    if (typeof request.data === 'string') {
      body = Buffer.from(request.data);
      headers['content-type'] ??= 'text/plain; charset=utf-8';
    } else if ((headers['content-type'] ?? '').includes('application/x-www-form-urlencoded') && typeof request.data === 'object') {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(request.data as Record<string, unknown>)) {
        form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
      }
      body = Buffer.from(form.toString());
    } else {
      body = Buffer.from(JSON.stringify(request.data));
      headers['content-type'] ??= 'application/json';
    }
    headers['content-length'] = String(body.length);
  }
  return { url, method, headers, body, secrets };
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  return out;
}

function responseHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw).slice(0, 50)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = text.length > 512 ? `${text.slice(0, 512)}…` : text;
  }
  return out;
}

interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  excerpt: Buffer;
  truncated: boolean;
  remoteAddress: string | null;
}

function exchange(
  prepared: Prepared,
  options: Required<Omit<OutboundOptions, 'timeoutMs'>>,
  signal: AbortSignal,
  maxBytes: number,
): Promise<Exchange> {
  const { url } = prepared;
  const host = url.hostname;
  const literal = canonicalAddress(host);
  if (literal !== null && !options.allowPrivateTargets) {
    const reason = forbiddenReason(literal);
    if (reason) return Promise.reject(new OutboundTargetRefused(host, literal, reason));
  }
  const lookup = guardedLookup({ allowPrivate: options.allowPrivateTargets, resolve: options.resolve });
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Exchange>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    };
    const req = transport.request(
      url,
      {
        method: prepared.method,
        headers: prepared.headers,
        agent: false,
        lookup,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () => {
          if (settled) return;
          settled = true;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            excerpt: Buffer.concat(chunks),
            truncated,
            remoteAddress: req.socket?.remoteAddress ?? null,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (size >= maxBytes) return;
          const room = maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = true;
            done();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', done);
        res.on('close', done);
        res.on('error', fail);
      },
    );
    req.on('socket', (socket: Socket) => {
      socket.on('connect', () => {
        // Defence in depth: the address the socket really reached passes the same guard.
        const remote = socket.remoteAddress;
        if (!options.allowPrivateTargets && remote && forbiddenReason(remote)) {
          req.destroy(new OutboundTargetRefused(host, remote, forbiddenReason(remote)!));
        }
      });
    });
    req.on('error', fail);
    req.end(prepared.body ?? undefined);
  });
}

function sameHostRedirect(from: URL, to: URL): boolean {
  if (from.hostname.toLowerCase() !== to.hostname.toLowerCase()) return false;
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  return !(from.protocol === 'https:' && to.protocol === 'http:');
}

function decodeExcerpt(bytes: Buffer, truncated: boolean): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // A cut in the middle of a character leaves a replacement character at the end: drop it.
  return truncated ? text.replace(/\uFFFD$/, '') : text;
}

/** Performs the request; refusals and invalid requests throw, everything else is a result. */
export async function sendOutbound(request: OutboundRequest, options: OutboundOptions = {}): Promise<OutboundResult> {
  const settings = {
    allowPrivateTargets: options.allowPrivateTargets ?? false,
    maxRedirects: options.maxRedirects ?? 3,
    maxExcerptBytes: options.maxExcerptBytes ?? 2048,
    resolve: options.resolve ?? systemResolver,
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let prepared = prepare(request);
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const redirects: string[] = [];
  const result = (fields: Partial<OutboundResult>): OutboundResult => ({
    url: prepared.url.toString(),
    method: prepared.method,
    status: null,
    duration_ms: Math.round(performance.now() - started),
    headers: {},
    excerpt: '',
    truncated: false,
    redirects,
    remote_address: null,
    ...fields,
  });
  try {
    for (;;) {
      let response: Exchange;
      try {
        response = await exchange(prepared, settings, controller.signal, settings.maxExcerptBytes);
      } catch (error) {
        if (error instanceof OutboundTargetRefused || error instanceof OutboundRequestInvalid) throw error;
        if (controller.signal.aborted) {
          return result({ error: { code: 'timeout', message: `no complete response within ${timeoutMs} ms` } });
        }
        const message = error instanceof Error ? redact(error.message, prepared.secrets) : 'request failed';
        return result({ error: { code: 'network', message } });
      }
      const base = {
        status: response.status,
        headers: responseHeaders(response.headers),
        excerpt: decodeExcerpt(response.excerpt, response.truncated),
        truncated: response.truncated,
        remote_address: response.remoteAddress,
      };
      const location = response.headers.location;
      if (response.status < 300 || response.status > 399 || response.status === 304 || !location) return result(base);
      let next: URL;
      try {
        next = new URL(location, prepared.url);
      } catch {
        return result(base);
      }
      if (!sameHostRedirect(prepared.url, next)) {
        return result({ ...base, error: { code: 'redirect_refused', message: `redirect to another host (${next.host}) not followed` } });
      }
      if (redirects.length >= settings.maxRedirects) {
        return result({ ...base, error: { code: 'too_many_redirects', message: `more than ${settings.maxRedirects} redirects` } });
      }
      const keepBody = response.status === 307 || response.status === 308;
      next.username = '';
      next.password = '';
      prepared = {
        ...prepared,
        url: next,
        method: keepBody || prepared.method === 'HEAD' ? prepared.method : 'GET',
        body: keepBody ? prepared.body : null,
        headers: keepBody
          ? prepared.headers
          : Object.fromEntries(Object.entries(prepared.headers).filter(([name]) => name !== 'content-length' && name !== 'content-type')),
      };
      redirects.push(next.toString());
    }
  } finally {
    clearTimeout(timer);
  }
}

export type { LookupAddress };
