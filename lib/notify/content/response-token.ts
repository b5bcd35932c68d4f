// One-click responses: a signed token names one person's workflow of one alert and one action,
// valid 24 hours. HMAC-SHA256 over the encoded claims, compared in constant time; anything
// malformed, tampered with or expired is simply invalid. Links: <base>/public/respond/<token>.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type ResponseAction = 'acknowledge' | 'reject';

export interface ResponseClaims {
  accountId: string;
  alertId: string;
  workflowId: string;
  accountUserId: string;
  action: ResponseAction;
  /** Epoch milliseconds after which the token is refused. */
  expiresAt: number;
}

export const RESPONSE_TOKEN_TTL_MS = 24 * 3_600_000;
const VERSION = 'r1';
const MIN_SECRET_BYTES = 32;
const MAX_TOKEN_LENGTH = 2_048;

export type VerifyResult = { ok: true; claims: ResponseClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

function key(secret: string | Uint8Array): Uint8Array {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (bytes.length < MIN_SECRET_BYTES) throw new Error(`response token secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return bytes;
}

function mac(secret: Uint8Array, body: string): Buffer {
  return createHmac('sha256', secret).update(`${VERSION}.${body}`).digest();
}

export function signResponseToken(
  claims: Omit<ResponseClaims, 'expiresAt'>,
  secret: string | Uint8Array,
  now: number,
  ttlMs = RESPONSE_TOKEN_TTL_MS,
): string {
  const payload: TokenPayload = {
    c: claims.accountId,
    l: claims.alertId,
    w: claims.workflowId,
    u: claims.accountUserId,
    a: claims.action === 'acknowledge' ? 'a' : 'r',
    e: now + ttlMs,
  };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${VERSION}.${body}.${mac(key(secret), body).toString('base64url')}`;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
/** The signed claims: c account, l alert, w workflow, u account user, a action (a/r), e expiry (ms). */
interface TokenPayload {
  c: string;
  l: string;
  w: string;
  u: string;
  a: 'a' | 'r';
  e: number;
}

/** 1 to 64 characters, counted in code points as zod counted them (an emoji is one, of two UTF-16 units). */
const isTokenId = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= 1 && (value.length <= 64 || [...value].length <= 64);

/**
 * The payload's claims when each has its shape (other fields are ignored), else null. Read by hand:
 * the escalation worker, the routing worker and the sweeper sign links at their start and validate
 * nothing else, so they load no zod (test/infra/bundles.test.ts); test/notify/response-token.test.ts
 * holds it to the schema it replaced.
 */
export function readTokenPayload(parsed: unknown): TokenPayload | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { c, l, w, u, a, e } = parsed as Record<string, unknown>;
  if (!isTokenId(c) || !isTokenId(l) || !isTokenId(w) || !isTokenId(u)) return null;
  if ((a !== 'a' && a !== 'r') || typeof e !== 'number' || !Number.isFinite(e)) return null;
  return { c, l, w, u, a, e };
}

export function verifyResponseToken(token: unknown, secret: string | Uint8Array, now: number): VerifyResult {
  const bytes = key(secret);
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION || !B64URL.test(parts[1]) || !B64URL.test(parts[2]))
    return { ok: false, reason: 'malformed' };
  const given = Buffer.from(parts[2], 'base64url');
  const expected = mac(bytes, parts[1]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const payload = readTokenPayload(parsed);
  if (!payload) return { ok: false, reason: 'malformed' };
  if (now >= payload.e) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    claims: {
      accountId: payload.c,
      alertId: payload.l,
      workflowId: payload.w,
      accountUserId: payload.u,
      action: payload.a === 'a' ? 'acknowledge' : 'reject',
      expiresAt: payload.e,
    },
  };
}

export function responseLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/public/respond/${token}`;
}
