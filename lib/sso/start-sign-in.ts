// GET /public/sso/accounts and GET /public/sso/start (docs/api.md#single-sign-on): which accounts an
// address may sign in to with single sign-on, and the start of a sign-in: the browser is sent to the
// account's issuer (authorization code flow with PKCE S256, a state and a nonce). State, nonce and
// code verifier stay in the table under the state's hash, valid 10 minutes and spent by the callback.
//   The account: `account_id` names it; else the address's person must belong to exactly one account
//   that has single sign-on (several: 409, and the console asks which with /public/sso/accounts).
//   Both routes are limited per source address (each start writes an item; each lookup tells whether
//   an address has accounts with single sign-on).
import { createHash } from 'node:crypto';
import { getUserIdByEmail, listAccountUsersOfUser } from '../account-users/store';
import { getAccount } from '../accounts/store';
import { takeAttempt } from '../auth/attempt-limit';
import { generateToken, sha256 } from '../auth/passwords';
import { getSsoSettings, type SsoSettingsRecord } from '../auth/sso-settings-store';
import { now } from '../clock';
import { Conflict, Invalid, NotFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import { signInQuery } from './schemas';
import { insertPendingSignIn } from './sign-in-store';

export const PENDING_SIGN_IN_TTL_MS = 10 * 60_000;
const LOOKUPS_PER_SOURCE = 100;
const WINDOW_SECONDS = 15 * 60;
export const SSO_SCOPES = 'openid email profile';

const NOT_SET_UP = 'Single sign-on is not set up for this address or account';

async function limitSource(sourceIp: string): Promise<void> {
  await takeAttempt([
    {
      bucket: `sso:ip:${sourceIp || 'unknown'}`,
      limit: LOOKUPS_PER_SOURCE,
      windowSeconds: WINDOW_SECONDS,
      message: 'Too many single sign-on requests from your network; try again later',
    },
  ]);
}

function queryOf(query: URLSearchParams) {
  return parseInput(signInQuery, { email: query.get('email') ?? undefined, account_id: query.get('account_id') ?? undefined });
}

/** The accounts of the address's person that have single sign-on, in account id order (login's order). */
async function accountsWithSso(email: string): Promise<SsoSettingsRecord[]> {
  const userId = await getUserIdByEmail(email);
  if (!userId) return [];
  const memberships = (await listAccountUsersOfUser(userId)).map((m) => m.account_id).sort();
  const settings = await Promise.all(memberships.map((accountId) => getSsoSettings(accountId)));
  return settings.filter((entry): entry is SsoSettingsRecord => entry !== null);
}

export async function listSsoAccounts(
  rawQuery: URLSearchParams,
  sourceIp: string,
): Promise<{ data: { account_id: string; account_name: string }[] }> {
  const { email } = queryOf(rawQuery);
  if (!email) throw new Invalid("email can't be blank");
  await limitSource(sourceIp);
  const settings = await accountsWithSso(email);
  const accounts = await Promise.all(settings.map((entry) => getAccount(entry.account_id)));
  return {
    data: accounts.flatMap((account) => (account ? [{ account_id: account.id, account_name: account.name }] : [])),
  };
}

async function pickAccount(email: string | undefined, rawAccountId: string | undefined): Promise<SsoSettingsRecord> {
  if (rawAccountId !== undefined) {
    const accountId = parseId('account', rawAccountId);
    const settings = accountId ? await getSsoSettings(accountId) : null;
    if (!settings) throw new NotFound(NOT_SET_UP);
    // An address beside it is only the issuer's login hint: who signs in is what the issuer says.
    return settings;
  }
  if (!email) throw new Invalid('email or account_id is required');
  const settings = await accountsWithSso(email);
  if (settings.length === 0) throw new NotFound(NOT_SET_UP);
  if (settings.length > 1) {
    throw new Conflict(
      'This address belongs to several accounts with single sign-on: choose one (account_id; the accounts: GET /public/sso/accounts)',
    );
  }
  return settings[0];
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** The issuer's authorization URL this browser is sent to. `serviceBase` is where the issuer sends it back. */
export async function startSignIn(rawQuery: URLSearchParams, serviceBase: string, sourceIp: string): Promise<string> {
  const { email, account_id: accountId } = queryOf(rawQuery);
  await limitSource(sourceIp);
  const settings = await pickAccount(email, accountId);
  const state = generateToken();
  const nonce = generateToken();
  const verifier = generateToken();
  const redirectUri = ssoRedirectUri(serviceBase);
  await insertPendingSignIn(sha256(state), {
    account_id: settings.account_id,
    nonce,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    valid_until: now() + PENDING_SIGN_IN_TTL_MS,
  });
  const url = new URL(settings.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', SSO_SCOPES);
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  url.searchParams.set('code_challenge', base64url(createHash('sha256').update(verifier).digest()));
  url.searchParams.set('code_challenge_method', 'S256');
  if (email) url.searchParams.set('login_hint', email);
  return url.toString();
}

/** Where the issuer sends the browser back: what an admin registers at the identity provider. */
export function ssoRedirectUri(serviceBase: string): string {
  return `${serviceBase}/public/sso/callback`;
}
