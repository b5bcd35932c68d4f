// The web console's serving rules, shared by the local server (infra/local/console-site.ts) and the
// CloudFront distribution (infra/constructs/web-console.ts), so the two can never disagree: which
// paths are the API's, the page's security headers, and how long each file may be cached.

/**
 * CloudFront path patterns of the API (both interfaces), routed to API Gateway unchanged. `*`
 * matches any characters, `/` included. Everything else is the console's (S3). The console itself
 * uses hash routing, so it only ever needs `/`, `/index.html` and `/assets/*`.
 */
export const API_PATH_PATTERNS = [
  '/api/*',
  '/alert*',
  '/event*',
  '/integration*',
  '/log*',
  '/account*',
  '/broadcast*',
  '/incident*',
  '/router*',
  '/automation*',
  '/notification*',
  '/public/*',
  '/health',
  '/v2/*',
  '/scim/*',
] as const;

/** CloudFront's path pattern matching: `*` is any run of characters, `?` one character. */
export function matchesPathPattern(pattern: string, path: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );
  return regex.test(path);
}

export const isApiPath = (path: string) => API_PATH_PATTERNS.some((pattern) => matchesPathPattern(pattern, path));

/** The console's own paths: the page and its content-hashed assets. */
export function isConsolePath(path: string): boolean {
  return path === '/' || path === '/index.html' || /^\/assets\/[\w.-]+$/.test(path);
}

/** Strict: only our own script and style files, no inline code, no framing, API on the same origin. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every console response (the CloudFront response headers policy sets the same). */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

/** The page is revalidated on every load (it names the current assets); assets never change. */
export const CACHE_CONTROL = {
  page: 'no-cache',
  asset: 'public, max-age=31536000, immutable',
} as const;

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
