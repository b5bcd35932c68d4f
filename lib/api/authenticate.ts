// Turns request headers into a Principal (contract §3): `Authorization: Bearer <token>`,
// `Authorization: <token>` (a login JWT or an API key token), or `x-api-key` + `x-api-secret`.
// Anything else, or a credential that no longer resolves, is a 401.
import { accountUserRef } from '../account-users/store';
import { apiKeyRef, getTokenPointer } from '../api-keys/store';
import { looksLikeJwt, verifyToken } from '../auth/jwt';
import { sameSecret, sha256 } from '../auth/passwords';
import { principals } from '../auth/principal-cache';
import { Unauthorized } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { getEach } from '../store/entity-store';

/** Loads the account user (and the key, for key credentials) in one round trip and checks both. */
async function loadPrincipal(
  accountId: string,
  accountUserId: string,
  userId: string | null,
  apiKeyId: string | null,
): Promise<Principal | null> {
  const [acu, key] = await getEach(accountUserRef(accountId, accountUserId), apiKeyId ? apiKeyRef(accountId, apiKeyId) : null);
  if (!acu || (userId && acu.user_id !== userId)) return null;
  if (apiKeyId && (!key || key.account_user_id !== accountUserId)) return null;
  return {
    accountId,
    accountUserId,
    userId: acu.user_id,
    roles: { ...acu.roles },
    via: apiKeyId ? 'api_key' : 'jwt',
    apiKeyId: apiKeyId ?? undefined,
  };
}

async function fromApiKeyToken(token: string, expectedKeyId: string | null): Promise<Principal> {
  const hash = sha256(token);
  const cacheKey = `k:${hash}`;
  let principal = principals.get(cacheKey);
  if (!principal) {
    const pointer = await getTokenPointer(hash);
    if (!pointer) throw new Unauthorized();
    const loaded = await loadPrincipal(pointer.account_id, pointer.account_user_id, null, pointer.key_id);
    if (!loaded) throw new Unauthorized();
    principals.set(cacheKey, loaded);
    principal = loaded;
  }
  if (expectedKeyId !== null && !sameSecret(principal.apiKeyId ?? '', expectedKeyId)) throw new Unauthorized();
  return principal;
}

async function fromJwt(token: string): Promise<Principal | null> {
  const claims = await verifyToken(token);
  if (!claims) return null;
  const cacheKey = `u:${claims.acu}`;
  const cached = principals.get(cacheKey);
  if (cached && cached.accountId === claims.acc && cached.userId === claims.sub) return cached;
  const loaded = await loadPrincipal(claims.acc, claims.acu, claims.sub, null);
  if (!loaded) throw new Unauthorized('The token names an account user that no longer exists');
  principals.set(cacheKey, loaded);
  return loaded;
}

export async function authenticate(headers: Record<string, string>): Promise<Principal> {
  const keyHeader = headers['x-api-key'];
  if (keyHeader !== undefined) {
    const secret = headers['x-api-secret'];
    const keyId = parseId('apiKey', keyHeader.trim());
    if (!secret || !keyId) throw new Unauthorized('x-api-key needs a valid key id and x-api-secret its secret');
    return fromApiKeyToken(secret.trim(), keyId);
  }
  const authorization = headers.authorization?.trim();
  if (!authorization) throw new Unauthorized();
  const token = authorization.replace(/^Bearer\s+/i, '').trim();
  if (!token) throw new Unauthorized();
  if (looksLikeJwt(token)) {
    // A bad JWT is still tried as an API key token: a key chosen by an operator
    // (BOOTSTRAP_API_KEY) may happen to contain two dots.
    const principal = await fromJwt(token);
    if (principal) return principal;
  }
  return fromApiKeyToken(token, null);
}
