// Login tokens: HS256 JWTs naming the user, the account and the account user (docs/api.md#authentication), and the
// user's password generation (`gen`, bumped by every password change), so that tokens issued before
// a change are refused (lib/api/authenticate.ts); a token without `gen` is of generation 0.
// Only HS256 is accepted on verification, so `alg: none` and other algorithms are refused.
// Signed and checked with node:crypto (RFC 7519 for the one algorithm we issue): jsonwebtoken
// carried semver, jws, jwa and seven lodash packages, ~55 KiB in every function that
// authenticates, for an HMAC and two JSON documents; tests still make tokens with it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';
import { generateToken } from './passwords';
import { getStoredJwtSecret, insertJwtSecret } from './store';

let secret: string | undefined;
// Another table (the local runtime, tests) has a secret of its own.
onEnvironmentChange(() => {
  secret = undefined;
});

/** The signing secret: JWT_SECRET, else one generated once and kept in the store. */
export async function jwtSecret(): Promise<string> {
  if (secret) return secret;
  const configured = config().JWT_SECRET;
  if (configured) return (secret = configured);
  const stored = await getStoredJwtSecret();
  if (stored) return (secret = stored);
  const fresh = generateToken();
  if (await insertJwtSecret(fresh)) return (secret = fresh);
  return (secret = (await getStoredJwtSecret())!);
}

export interface TokenClaims {
  sub: string;
  acc: string;
  acu: string;
  /** The user's password generation when the token was issued. */
  gen: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function hs256(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

/** Seconds since the epoch, the JWT's time (wall clock, as the tokens' holders see it). */
const epochSeconds = () => Math.floor(Date.now() / 1000);

export async function signToken(claims: TokenClaims): Promise<string> {
  const iat = epochSeconds();
  const payload = Buffer.from(JSON.stringify({ ...claims, iat, exp: iat + config().JWT_TTL_SECONDS })).toString('base64url');
  const signingInput = `${HEADER}.${payload}`;
  return `${signingInput}.${hs256(await jwtSecret(), signingInput).toString('base64url')}`;
}

/** The payload of a compact HS256 JWT whose signature is ours and whose times hold; null otherwise. */
function verifiedPayload(token: string, secret: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts;
  const decoded = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  const head = decoded(header) as Record<string, unknown> | null;
  if (!head || typeof head !== 'object' || head.alg !== 'HS256') return null;
  const expected = hs256(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  // base64url decoding skips stray characters: the text must be exactly the encoding of the MAC.
  if (given.length !== expected.length || given.toString('base64url') !== signature || !timingSafeEqual(given, expected)) return null;
  const claims = decoded(payload) as Record<string, unknown> | null;
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
  const at = epochSeconds();
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    if (claims[name] !== undefined && typeof claims[name] !== 'number') return null;
  }
  if (typeof claims.exp === 'number' && at >= claims.exp) return null;
  if (typeof claims.nbf === 'number' && at < claims.nbf) return null;
  return claims;
}

export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/** The claims of a valid, unexpired HS256 token signed with our secret; null otherwise. */
export async function verifyToken(token: string): Promise<TokenClaims | null> {
  try {
    const payload = verifiedPayload(token, await jwtSecret());
    if (!payload) return null;
    const { sub, acc, acu, gen = 0 } = payload;
    if (typeof sub !== 'string' || typeof acc !== 'string' || typeof acu !== 'string') return null;
    if (typeof gen !== 'number' || !Number.isSafeInteger(gen) || gen < 0) return null;
    return { sub, acc, acu, gen };
  } catch {
    return null;
  }
}
