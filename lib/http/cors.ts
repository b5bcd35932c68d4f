// CORS for browsers (api-earlier.md: "CORS is supported for client-side browser use"), in one place:
// the headers of every function response (lib/http/gateway-results.ts), API Gateway's corsPreflight settings
// in the stack and the local server's preflight answers (both through infra/cors.ts).
const allowOrigins = ['*'];
const allowMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const allowHeaders = ['content-type', 'authorization', 'x-api-key', 'x-api-secret', 'pagertree-token'];
const exposeHeaders = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
const maxAgeSeconds = 3600;

export const CORS = {
  allowOrigins,
  allowMethods,
  allowHeaders,
  exposeHeaders,
  maxAgeSeconds,
  /** The origin header alone (the local server's own early answers). */
  headers: { 'access-control-allow-origin': '*' } as Record<string, string>,
  /** On every response a function returns. */
  responseHeaders: {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposeHeaders.join(','),
  } as Record<string, string>,
  preflightHeaders: {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': allowMethods.join(','),
    'access-control-allow-headers': allowHeaders.join(','),
    'access-control-max-age': String(maxAgeSeconds),
  } as Record<string, string>,
};
