// Login tokens: HS256 JWTs naming the user, the account and the account user (docs/api.md#authentication), and the
// user's password generation (`gen`, bumped by every password change), so that tokens issued before
// a change are refused (lib/api/authenticate.ts); a token without `gen` is of generation 0.
// Only HS256 is accepted on verification, so `alg: none` and other algorithms are refused.
// jsonwebtoken (with jws, jwa and node:crypto's setup) loads with the first login token signed or
// checked: a request with an API key never needs it, and it was ~10 ms of every cold start (issue 21).
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';
import { generateToken } from './passwords';
import { getStoredJwtSecret, insertJwtSecret } from './store';
import { loadOnce } from '../load-once';

const loadJsonwebtoken = /* @__PURE__ */ loadOnce(() => import('jsonwebtoken'));

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

/** jsonwebtoken, loaded the first time a token is signed or checked (its own chunk in the bundle). */
async function jsonwebtoken() {
  return (await loadJsonwebtoken()).default;
}

export async function signToken(claims: TokenClaims): Promise<string> {
  const jwt = await jsonwebtoken();
  return jwt.sign(claims, await jwtSecret(), { algorithm: 'HS256', expiresIn: config().JWT_TTL_SECONDS });
}

export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/** The claims of a valid, unexpired HS256 token signed with our secret; null otherwise. */
export async function verifyToken(token: string): Promise<TokenClaims | null> {
  const jwt = await jsonwebtoken();
  try {
    const payload = jwt.verify(token, await jwtSecret(), { algorithms: ['HS256'] });
    if (typeof payload !== 'object' || !payload) return null;
    const { sub, acc, acu, gen = 0 } = payload as Record<string, unknown>;
    if (typeof sub !== 'string' || typeof acc !== 'string' || typeof acu !== 'string') return null;
    if (typeof gen !== 'number' || !Number.isSafeInteger(gen) || gen < 0) return null;
    return { sub, acc, acu, gen };
  } catch {
    return null;
  }
}
