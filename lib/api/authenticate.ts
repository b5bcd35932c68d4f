// Turns request headers into a Principal (docs/api.md#authentication): `Authorization: Bearer <token>`,
// `Authorization: <token>` (a login JWT or an API key token), or `x-api-key` + `x-api-secret`.
// Anything else, or a credential that no longer resolves, is a 401: a login JWT also when it was
// issued under an older password generation than the user's (the password changed since), and any
// credential of an account user deactivated by the account's identity provider (SCIM `active: false`).
// SCIM tokens authenticate the /scim/v2 routes alone (authenticateScim), and only they do there:
// their secrets live under pointers of their own, so neither lookup finds the other's.
import { accountUserRef, userRef } from '../account-users/store';
import { apiKeyRef, getTokenPointer } from '../api-keys/store';
import { looksLikeJwt, verifyToken, type TokenClaims } from '../auth/jwt';
import { sameSecret, sha256 } from '../auth/passwords';
import { principals } from '../auth/principal-cache';
import { Unauthorized } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { getScimTokenPointer, scimTokenRef } from '../scim/token-store';
import { getEach } from '../store/entity-store';

/** Loads the account user and, for key credentials, the key or, for a login token, the user (whose
 * password generation the token must carry), in one round trip, and checks them. */
async function loadPrincipal(
  accountId: string,
  accountUserId: string,
  login: Pick<TokenClaims, 'sub' | 'gen'> | null,
  apiKeyId: string | null,
): Promise<Principal | null> {
  const [acu, key, user] = await getEach(
    accountUserRef(accountId, accountUserId),
    apiKeyId ? apiKeyRef(accountId, apiKeyId) : null,
    login ? userRef(login.sub) : null,
  );
  if (!acu || acu.deactivated_at || (login && acu.user_id !== login.sub)) return null;
  if (login && (!user || (user.password_generation ?? 0) !== login.gen)) return null;
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

/** Loads of principals in flight, by cache key. */
const loading = new Map<string, Promise<Principal | null>>();

/**
 * Loads a principal that is not cached, once for all the requests that miss it together: a client
 * sending many requests at once (a flood, refused or not) costs one load per cache lifetime, not a
 * pair of reads per request in flight, which other accounts' requests would queue behind.
 */
function loadOnce(cacheKey: string, load: () => Promise<Principal | null>): Promise<Principal | null> {
  let pending = loading.get(cacheKey);
  if (!pending) {
    pending = load()
      .then((loaded) => {
        if (loaded) principals.set(cacheKey, loaded);
        return loaded;
      })
      .finally(() => loading.delete(cacheKey));
    loading.set(cacheKey, pending);
  }
  return pending;
}

async function fromApiKeyToken(token: string, expectedKeyId: string | null): Promise<Principal> {
  const hash = sha256(token);
  const cacheKey = `k:${hash}`;
  const principal =
    principals.get(cacheKey) ??
    (await loadOnce(cacheKey, async () => {
      const pointer = await getTokenPointer(hash);
      return pointer ? loadPrincipal(pointer.account_id, pointer.account_user_id, null, pointer.key_id) : null;
    }));
  if (!principal) throw new Unauthorized();
  if (expectedKeyId !== null && !sameSecret(principal.apiKeyId ?? '', expectedKeyId)) throw new Unauthorized();
  return principal;
}

async function fromJwt(token: string): Promise<Principal | null> {
  const claims = await verifyToken(token);
  if (!claims) return null;
  // Keyed by generation too: a token issued after a password change never meets a principal cached
  // for the tokens before it. A password change drops the person's entries in this instance.
  const cacheKey = `u:${claims.acu}:${claims.gen}`;
  const cached = principals.get(cacheKey);
  if (cached && cached.accountId === claims.acc && cached.userId === claims.sub) return cached;
  const loaded = await loadOnce(cacheKey, () => loadPrincipal(claims.acc, claims.acu, claims, null));
  // A load shared with another token of the same account user: it answers for this one only if it names the same account and person.
  if (!loaded || loaded.accountId !== claims.acc || loaded.userId !== claims.sub) {
    throw new Unauthorized(
      'The token is no longer valid: its account user was deleted or deactivated, or the password changed since it was issued. Sign in again.',
    );
  }
  return loaded;
}

/** Whether a request names any credential (a route whose credentials are optional authenticates it then). */
export function carriesCredentials(headers: Record<string, string>): boolean {
  return headers.authorization !== undefined || headers['x-api-key'] !== undefined || headers['x-api-secret'] !== undefined;
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

/** The no-roles-but-admin a SCIM token acts with: provisioning creates, changes and deletes people and teams. */
const SCIM_ROLES = { admin: true, billing: false, broadcaster: false, communicator: false };

/** A SCIM token (`Authorization: Bearer <token>`): the account it belongs to, acting as an admin. */
export async function authenticateScim(headers: Record<string, string>): Promise<Principal> {
  const token = headers.authorization
    ?.trim()
    .replace(/^Bearer\s+/i, '')
    .trim();
  if (!token) throw new Unauthorized('A SCIM token is needed: Authorization: Bearer <token>');
  const hash = sha256(token);
  const cacheKey = `s:${hash}`;
  const cached = principals.get(cacheKey);
  if (cached) return cached;
  const pointer = await getScimTokenPointer(hash);
  if (!pointer) throw new Unauthorized('The SCIM token is not valid or was revoked');
  const [record] = await getEach(scimTokenRef(pointer.account_id, pointer.token_id));
  if (!record) throw new Unauthorized('The SCIM token is not valid or was revoked');
  const principal: Principal = {
    accountId: record.account_id,
    accountUserId: record.created_by,
    userId: '',
    roles: { ...SCIM_ROLES },
    via: 'scim',
    scimTokenId: record.id,
  };
  principals.set(cacheKey, principal);
  return principal;
}
