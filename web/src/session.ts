// The login token: kept in memory and in sessionStorage (so a reload keeps the tab signed in, and
// closing the tab forgets it), never in a URL, a cookie or localStorage. Its claims name the account
// user; they are read only to know who "me" is — the API checks the token itself.

const STORAGE_KEY = 'oncall.session';

export interface Claims {
  /** User id. */
  sub: string;
  /** Account id. */
  acc: string;
  /** Account user id. */
  acu: string;
  exp?: number;
}

let token: string | null = null;
const listeners = new Set<() => void>();

function decodeClaims(jwt: string): Claims | null {
  try {
    const payload = jwt.split('.')[1];
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as Partial<Claims>;
    if (typeof claims.acu !== 'string' || typeof claims.acc !== 'string' || typeof claims.sub !== 'string') return null;
    return claims as Claims;
  } catch {
    return null;
  }
}

const expired = (claims: Claims) => typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now();

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Restores the tab's session, if it has an unexpired one. */
export function restoreSession(): void {
  const stored = storage()?.getItem(STORAGE_KEY) ?? null;
  const claims = stored ? decodeClaims(stored) : null;
  token = claims && !expired(claims) ? stored : null;
  if (!token) storage()?.removeItem(STORAGE_KEY);
}

export function startSession(jwt: string): void {
  if (!decodeClaims(jwt)) throw new Error('The sign-in answer carried no usable token.');
  token = jwt;
  storage()?.setItem(STORAGE_KEY, jwt);
  listeners.forEach((listener) => listener());
}

let endNotice: string | null = null;

/** Ends the session; `notice` is what the sign-in page then says (why the person must sign in again). */
export function endSession(notice: string | null = null): void {
  token = null;
  endNotice = notice;
  storage()?.removeItem(STORAGE_KEY);
  listeners.forEach((listener) => listener());
}

/** The notice the last endSession left, once. */
export function takeEndNotice(): string | null {
  const notice = endNotice;
  endNotice = null;
  return notice;
}

export function currentToken(): string | null {
  return token;
}

export function currentClaims(): Claims | null {
  return token ? decodeClaims(token) : null;
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
