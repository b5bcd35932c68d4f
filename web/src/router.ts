// Hash routing (`/#/alerts/01K…`): the page is always `/`, so every other path, both API interfaces
// included, reaches the API unchanged, locally and behind CloudFront.
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  /** `/alerts/01K…` */
  path: string;
  query: URLSearchParams;
}

/** What the router hands a page: the path's parameters (`:id`) and the query. */
export interface PageProps {
  params: Record<string, string>;
  query: URLSearchParams;
}

export function currentLocation(): Location {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const at = hash.indexOf('?');
  const path = at < 0 ? hash : hash.slice(0, at);
  return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(at < 0 ? '' : hash.slice(at + 1)) };
}

export function href(path: string, query?: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value) params.set(key, value);
  const search = params.toString();
  return `#${path}${search ? `?${search}` : ''}`;
}

export function navigate(path: string, query?: Record<string, string | null | undefined>, options: { replace?: boolean } = {}): void {
  const target = href(path, query);
  if (options.replace) window.history.replaceState(null, '', target);
  else window.location.hash = target;
  if (options.replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useLocation(): Location {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const update = () => setLocation(currentLocation());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return location;
}

/** Matches `/alerts/:id` against a path: the parameters, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}
