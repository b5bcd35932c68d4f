// A local stand-in for API Gateway (HTTP API): matches a request against the route table, turns it
// into a payload 2.0 event with the route key the deployed API sends (ANY where the stack merged a
// function's methods of a path), invokes the same handler module the stack deploys, and writes the
// result back. Unmatched requests go to the $default function; CORS preflights are answered here,
// as API Gateway answers them. With a built console, its page and assets are served first, as the
// CloudFront distribution serves them from S3 in front of the API.
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import {
  GATEWAY_ROUTES,
  ROUTES,
  gatewayRouteKey,
  routeKey,
  type GatewayRoute,
  type HttpFunctionName,
  type Route,
} from '../../lib/api/route-table';
import { FUNCTIONS } from '../functions';
import { CORS } from '../cors';
import { hurryUnhurried } from '../../lib/group-commit';
import { LAMBDA_RESPONSE_BYTES, payloadBytes } from '../../lib/http/compression';
import type { ConsoleSite } from './console-site';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway's own payload limit; bodies the functions must reject (over 256 KiB) still reach them. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

type Routable = Pick<Route, 'path'> & { method: string };

interface CompiledRoute<R extends Routable> {
  route: R;
  segments: string[];
  literalCount: number;
}

/** Routes by method and segment count, most specific first (literal segments win over
 * {parameters}, as in API Gateway), so a request is matched against a handful of candidates. */
export type RouteIndex<R extends Routable = Route> = Map<string, CompiledRoute<R>[]>;

export function compileRoutes<R extends Routable>(routes: readonly R[]): RouteIndex<R> {
  const index: RouteIndex<R> = new Map();
  for (const route of routes) {
    const segments = route.path.split('/').filter(Boolean);
    const key = `${route.method} ${segments.length}`;
    const list = index.get(key) ?? [];
    list.push({ route, segments, literalCount: segments.filter((s) => !s.startsWith('{')).length });
    index.set(key, list);
  }
  for (const list of index.values()) list.sort((a, b) => b.literalCount - a.literalCount);
  return index;
}

export function matchRoute<R extends Routable>(
  index: RouteIndex<R>,
  method: string,
  path: string,
): { route: R; params: Record<string, string> } | null {
  const parts = path.split('/').filter(Boolean);
  for (const candidate of index.get(`${method} ${parts.length}`) ?? []) {
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      const segment = candidate.segments[i];
      if (segment.charCodeAt(0) === 123 /* { */) params[segment.slice(1, -1)] = parts[i];
      else if (segment !== parts[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { route: candidate.route, params };
  }
  return null;
}

/** The route API Gateway picks: a route of the request's method first, then an ANY route of the
 * path (which takes the methods its path does not name), each with the route key it sends. */
export function matchGatewayRoute(
  declared: RouteIndex,
  merged: RouteIndex<GatewayRoute>,
  method: string,
  path: string,
): { key: string; fn: HttpFunctionName; params: Record<string, string> } | null {
  const exact = matchRoute(declared, method, path);
  if (exact) return { key: gatewayRouteKey(exact.route), fn: exact.route.fn, params: exact.params };
  const any = matchRoute(merged, 'ANY', path);
  return any && { key: routeKey(any.route), fn: any.route.fn, params: any.params };
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const TEXT_TYPES = /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript|[\w.+-]*\+json|[\w.+-]*\+xml))|^$/;

// API Gateway's requestContext.time format, computed once per second.
let cachedSecond = 0;
let cachedTime = '';
function requestTime(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedTime = new Date(now).toUTCString();
  }
  return cachedTime;
}

export interface LocalApi {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

export async function startApi(options: {
  host: string;
  port: number;
  loadHandler?: (fn: HttpFunctionName) => Promise<Handler>;
  /** The web console's files, served at `/` and `/assets/*` (GET only). */
  console?: ConsoleSite;
}): Promise<LocalApi> {
  const compiled = compileRoutes(ROUTES);
  const merged = compileRoutes(GATEWAY_ROUTES.filter((route) => route.method === 'ANY'));
  const handlers = new Map<HttpFunctionName, Promise<Handler>>();
  const load =
    options.loadHandler ??
    (async (fn: HttpFunctionName) => {
      const module = (await import(new URL(`../../${FUNCTIONS[fn].entry}`, import.meta.url).href)) as { handler: Handler };
      return module.handler;
    });
  const handlerOf = (fn: HttpFunctionName) => {
    let handler = handlers.get(fn);
    if (!handler) {
      handler = load(fn);
      handlers.set(fn, handler);
    }
    return handler;
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (options.console) {
      const target = req.url ?? '/';
      const at = target.indexOf('?');
      if (options.console.serve(req, res, (req.method ?? 'GET').toUpperCase(), at < 0 ? target : target.slice(0, at))) return;
    }
    const body = await readBody(req);
    if (body === null) {
      res.writeHead(413, { 'content-type': 'application/json', ...CORS.headers });
      res.end(JSON.stringify({ message: 'Request Entity Too Large' }));
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    const at = target.indexOf('?');
    const rawPath = at < 0 ? target : target.slice(0, at);
    const rawQueryString = at < 0 ? '' : target.slice(at + 1);
    if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.writeHead(204, CORS.preflightHeaders);
      res.end();
      return;
    }
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const matched = matchGatewayRoute(compiled, merged, method, path);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
    }
    const contentType = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    // Bytes that are not UTF-8 are passed base64 whatever their label, so a function can keep them intact.
    const isText = TEXT_TYPES.test(contentType) && isUtf8(body);
    const now = Date.now();
    const key = matched ? matched.key : '$default';
    const query: Record<string, string> = {};
    if (rawQueryString) {
      for (const [name, value] of new URLSearchParams(rawQueryString)) {
        query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
      }
    }
    const event: APIGatewayProxyEventV2 = {
      version: '2.0',
      routeKey: key,
      rawPath,
      rawQueryString,
      cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
      headers,
      queryStringParameters: Object.keys(query).length ? query : undefined,
      // Decoded, as API Gateway's HTTP APIs hand them to the function.
      pathParameters: matched && Object.keys(matched.params).length ? decodedParams(matched.params) : undefined,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'local',
        http: {
          method,
          path: rawPath,
          protocol: `HTTP/${req.httpVersion}`,
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
          userAgent: headers['user-agent'] ?? '',
        },
        requestId: randomUUID(),
        routeKey: key,
        stage: '$default',
        time: requestTime(now),
        timeEpoch: now,
      },
      body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
      isBase64Encoded: body.length > 0 && !isText,
    };
    const fn: HttpFunctionName = matched ? matched.fn : 'notFound';
    // Lambda starts an invocation's timeout once the function is initialised: a cold import (seconds
    // on a busy machine) is not the request's time.
    const handler = await handlerOf(fn);
    // The queue workers' summed counts may wait a moment for company (lib/group-commit.ts
    // setUnhurriedLinger): a read first writes them, so it counts what the work done before it did.
    if (method === 'GET' || method === 'HEAD') await hurryUnhurried();
    const invoked = Date.now();
    const context = {
      functionName: fn,
      awsRequestId: event.requestContext.requestId,
      getRemainingTimeInMillis: () => FUNCTIONS[fn].timeoutSeconds * 1000 - (Date.now() - invoked),
    } as unknown as Context;
    const result = await handler(event, context);
    // Lambda refuses a response payload over 6 MB, and API Gateway answers that as a 500: so does this
    // server, so a function that forgets the limit fails here as it would deployed.
    if ((result.body?.length ?? 0) > 1_000_000 && payloadBytes(result) > LAMBDA_RESPONSE_BYTES) {
      console.error(`local api: ${fn} answered more than Lambda's ${LAMBDA_RESPONSE_BYTES} bytes; API Gateway would answer 500`);
      res.writeHead(500, { 'content-type': 'application/json', ...CORS.headers });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
      return;
    }
    const responseHeaders: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
    if (result.cookies?.length) responseHeaders['set-cookie'] = result.cookies;
    const payload = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined;
    if (payload) responseHeaders['content-length'] = String(payload.length);
    res.writeHead(result.statusCode ?? 200, responseHeaders);
    res.end(payload);
  }

  const server = http.createServer((req, res) => {
    serve(req, res).catch((error) => {
      // A handler that throws past its own error mapping is what API Gateway reports as a 500.
      console.error('local api: handler failed', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'Internal server error' }] }));
    });
  });
  // Senders reuse idle connections; keep them at least 60 s, as API Gateway does (docs/api.md#integrations).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    server,
    url: `http://${host}:${address.port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Path parameters as an HTTP API hands them over: percent-decoded once (a malformed escape kept as sent). */
function decodedParams(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      try {
        return [name, decodeURIComponent(value)];
      } catch {
        return [name, value];
      }
    }),
  );
}
