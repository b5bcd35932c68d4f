// The console's client of our public API on the same origin: /api/v4, and the earlier interface
// where v4 has no equivalent (an alert's assignee and handoff, logs). The token travels in the
// Authorization header only. A 401 ends the session: the token expired or was revoked.
import { currentToken, endSession } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join('; ') || `Request failed (${status})`);
  }
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  total_count: number;
}

type Query = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

let expiredListener: (() => void) | null = null;
/** Called when the API refuses the session's token (the app shows why on the sign-in page). */
export function onSessionExpired(listener: () => void): void {
  expiredListener = listener;
}

let renewing = 0;
/**
 * Runs `work` that makes the session's own token refused and replaces it (a password change, then a
 * sign-in with the new password). Meanwhile a 401 answered to the old token (a refresh in flight)
 * does not end the session.
 */
export async function renewSession(work: () => Promise<void>): Promise<void> {
  renewing++;
  try {
    await work();
  } finally {
    renewing--;
  }
}

export async function request<T>(method: string, path: string, body?: unknown, options: { anonymous?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.anonymous ? null : currentToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, ['The service cannot be reached. Check your connection and try again.']);
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    const errors = (parsed as { errors?: { message?: unknown }[] } | undefined)?.errors;
    const messages = Array.isArray(errors) ? errors.map((e) => String(e?.message ?? '')).filter(Boolean) : [];
    // Only a refusal of the session's current token ends it: one sent before a renewal does not.
    if (response.status === 401 && token && token === currentToken() && renewing === 0) {
      endSession();
      expiredListener?.();
    }
    throw new ApiError(response.status, messages.length ? messages : [`Request failed (${response.status})`]);
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: (path: string) => request<void>('DELETE', path),
};

/** Every object of a list (pages of 100), for the small collections: users, teams, schedules, … */
export async function listAll<T>(path: string, query: Query = {}, maxPages = 50): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const result = await api.get<Page<T>>(path, { ...query, limit: 100, page });
    all.push(...result.data);
    if (!result.has_more) break;
  }
  return all;
}

/** A 404 that is an answer (not connected, not set up), not a failure: null. */
export async function unlessNotFound<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function messagesOf(error: unknown): string[] {
  if (error instanceof ApiError) return error.messages;
  return [error instanceof Error ? error.message : String(error)];
}
