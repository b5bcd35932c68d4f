// The `state` of "Add to Slack" (docs/api.md#slack): names the account and the admin who asked, is
// valid 10 minutes, and is signed (HMAC-SHA256 with a key derived from the JWT secret), so Slack's
// redirect to the public callback can only connect the account that asked, and only soon after.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { jwtSecret } from '../auth/jwt';
import { now } from '../clock';

export const STATE_TTL_MS = 10 * 60_000;

export interface InstallState {
  accountId: string;
  accountUserId: string;
  /** Epoch ms (service clock). */
  expiresAt: number;
}

async function stateKey(): Promise<Buffer> {
  return createHmac('sha256', await jwtSecret())
    .update('slack-oauth-state')
    .digest();
}

async function mac(payload: string): Promise<string> {
  return createHmac('sha256', await stateKey())
    .update(payload)
    .digest('base64url');
}

export async function signInstallState(accountId: string, accountUserId: string): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ a: accountId, u: accountUserId, e: now() + STATE_TTL_MS })).toString('base64url');
  return `${payload}.${await mac(payload)}`;
}

export type StateCheck = { ok: true; state: InstallState } | { ok: false; reason: 'invalid' | 'expired' };

export async function verifyInstallState(state: string): Promise<StateCheck> {
  const [payload, signature, extra] = state.split('.');
  if (!payload || !signature || extra !== undefined || state.length > 1_000) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(await mac(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  let claims: { a?: unknown; u?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof claims.a !== 'string' || typeof claims.u !== 'string' || typeof claims.e !== 'number') return { ok: false, reason: 'invalid' };
  if (claims.e <= now()) return { ok: false, reason: 'expired' };
  return { ok: true, state: { accountId: claims.a, accountUserId: claims.u, expiresAt: claims.e } };
}
