// CORS for browsers (api-earlier.md: "CORS is supported for client-side browser use"): API Gateway's
// corsPreflight settings in the stack and the local server's preflight answers come from here.
export const CORS = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowHeaders: ['content-type', 'authorization', 'x-api-key', 'x-api-secret', 'pagertree-token'],
  exposeHeaders: ['retry-after'],
  maxAgeSeconds: 3600,
  headers: { 'access-control-allow-origin': '*' } as Record<string, string>,
  get preflightHeaders(): Record<string, string> {
    return {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': this.allowMethods.join(','),
      'access-control-allow-headers': this.allowHeaders.join(','),
      'access-control-max-age': String(this.maxAgeSeconds),
    };
  },
};
