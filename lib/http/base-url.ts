// The base URL clients reach this API at, for addresses the API shows (an integration's inbound
// `url`). PUBLIC_BASE_URL wins when the operator sets one (a custom domain behind a proxy); else it
// is the request's own: API Gateway passes the Host the client used (its execute-api domain or a
// custom domain, also in requestContext.domainName) and `x-forwarded-proto`. The stack cannot hand
// its own API URL to a function of the same stack without a dependency cycle, so the request is the
// source that is always right.
import { config } from '../config';

export function baseUrlOf(request: { headers: Record<string, string>; domainName?: string }): string {
  const configured = config().PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const first = (value: string | undefined) => value?.split(',')[0].trim() || undefined;
  const host = first(request.headers['x-forwarded-host']) ?? first(request.headers.host) ?? (request.domainName || 'localhost');
  const forwarded = first(request.headers['x-forwarded-proto'])?.toLowerCase();
  const proto = forwarded === 'http' || forwarded === 'https' ? forwarded : isLocal(host) ? 'http' : 'https';
  return `${proto}://${host}`;
}

/** A loopback or private host is the local runtime (plain HTTP); anything else is served over TLS. */
function isLocal(host: string): boolean {
  const name = host
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\./.test(name) ||
    /^(10|192\.168)\./.test(name) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(name)
  );
}

/** The console's address (CONSOLE_URL, else PUBLIC_BASE_URL), which serves the API too; null when neither is configured. */
export function configuredConsoleBase(): string | null {
  const base = config().CONSOLE_URL ?? config().PUBLIC_BASE_URL;
  return base ? base.replace(/\/+$/, '') : null;
}

/** A page of the web console (`<CONSOLE_URL>/#/<route>`), for links in messages; null without a console address. */
export function consoleLink(route: string): string | null {
  const base = configuredConsoleBase();
  return base ? `${base}/#/${route}` : null;
}
