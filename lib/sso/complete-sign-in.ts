// GET /public/sso/callback (docs/api.md#single-sign-on): where the issuer sends the browser back. The
// state must name a pending sign-in (spent here: a replayed callback finds nothing); the code is
// exchanged at the token endpoint with the PKCE verifier and the client's secret; the ID token is
// verified (id-token.ts); then the account user whose e-mail is the token's verified `email` signs
// in, or is made first with the default roles when the account allows it. What the browser takes
// back to the console is a one-time code valid 60 seconds (exchange-sign-in-code.ts), never the
// login token itself. Any failed check is a SignInRefused (403) naming the reason, and nobody is
// signed in.
// Each outcome is an audit event of the account (lib/audit-events/record-sign-in.ts), once the state
// named one: a refusal before that (an unknown or replayed state) concerns no account and is logged.
import { getAccountUserOfUser, getUserIdByEmail } from '../account-users/store';
import { provisionAccountUser } from '../account-users/provision-account-user';
import { recordSignIn as recordAuditSignIn } from '../audit-events/record-sign-in';
import { generateToken, sha256 } from '../auth/passwords';
import { openSecret } from '../auth/sealed-secrets';
import { getSsoSettings, ssoSealingContext, type SsoSettingsRecord } from '../auth/sso-settings-store';
import { now } from '../clock';
import { logger } from '../log';
import { IdTokenRefused, verifyIdToken, type VerifiedIdentity } from './id-token';
import { callIssuer, IssuerCallFailed } from './issuer-calls';
import { insertSignInCode, spendPendingSignIn, type PendingSignIn } from './sign-in-store';

export const SIGN_IN_CODE_TTL_MS = 60_000;

/** A sign-in that failed a check: 403, with the reason on the page. */
export class SignInRefused extends Error {
  /** The account the sign-in was for, once its state named one. */
  accountId: string | null = null;
}

export type SignInOutcome = { ok: true; code: string } | { ok: false; reason: string };

/** The one place a sign-in's outcome is told: the log, and the account's audit trail. */
async function recordSignIn(outcome: { accountId: string | null; accountUserId?: string; reason?: string }): Promise<void> {
  if (outcome.reason) logger.warn('single sign-on refused', { accountId: outcome.accountId, reason: outcome.reason });
  else logger.info('single sign-on', { accountId: outcome.accountId, accountUserId: outcome.accountUserId });
  if (outcome.accountId === null) return;
  await recordAuditSignIn({
    accountId: outcome.accountId,
    accountUserId: outcome.accountUserId ?? null,
    method: 'sso',
    reason: outcome.reason,
  });
}

const oneLine = (value: unknown, max = 200) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').slice(0, max) : '');

async function redeemCode(settings: SsoSettingsRecord, pending: PendingSignIn, code: string): Promise<string> {
  const secret = await openSecret(settings.client_secret_sealed, ssoSealingContext(settings.account_id));
  const form: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: pending.redirect_uri,
    code_verifier: pending.code_verifier,
  };
  // RFC 6749 §2.3.1: the Basic credentials are form-encoded first.
  const formEncoded = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  const basic = settings.token_endpoint_auth === 'client_secret_basic';
  if (!basic) Object.assign(form, { client_id: settings.client_id, client_secret: secret });
  let answer: Record<string, unknown>;
  try {
    answer = await callIssuer({
      url: settings.token_endpoint,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: form,
      auth: basic ? { username: formEncoded(settings.client_id), password: formEncoded(secret) } : null,
    });
  } catch (error) {
    if (!(error instanceof IssuerCallFailed)) throw error;
    const detail = oneLine(error.answer?.error_description);
    throw new SignInRefused(`the identity provider did not accept the sign-in code (${error.message}${detail ? `: ${detail}` : ''})`);
  }
  if (typeof answer.id_token !== 'string') throw new SignInRefused('the identity provider answered no ID token');
  return answer.id_token;
}

async function accountUserFor(settings: SsoSettingsRecord, identity: VerifiedIdentity): Promise<{ accountUserId: string; userId: string }> {
  if (!identity.email) throw new SignInRefused('the ID token carries no email (ask for the email scope)');
  if (!identity.emailVerified)
    throw new SignInRefused(`the identity provider has not verified the address ${identity.email} (email_verified)`);
  const userId = await getUserIdByEmail(identity.email);
  const existing = userId ? await getAccountUserOfUser(userId, settings.account_id) : null;
  if (existing?.deactivated_at)
    throw new SignInRefused(`${identity.email} was deactivated in this account by its identity provider (SCIM)`);
  if (existing) return { accountUserId: existing.id, userId: existing.user_id };
  if (!settings.create_users) throw new SignInRefused(`${identity.email} is not a user of this account; ask an admin to add you`);
  const created = await provisionAccountUser(settings.account_id, {
    email: identity.email,
    name: identity.name ?? identity.email.split('@')[0],
    roles: settings.default_roles,
  });
  logger.info('single sign-on created an account user', { accountId: settings.account_id, accountUserId: created.id });
  return { accountUserId: created.id, userId: created.user_id };
}

async function signIn(query: URLSearchParams): Promise<{ accountId: string; accountUserId: string; code: string }> {
  const state = query.get('state');
  if (!state) throw new SignInRefused('the identity provider sent no state');
  const pending = await spendPendingSignIn(sha256(state));
  if (!pending || pending.valid_until <= now())
    throw new SignInRefused('this sign-in is unknown, expired or already used (state); start again');
  try {
    return await finishSignIn(query, pending);
  } catch (error) {
    if (error instanceof SignInRefused) error.accountId = pending.account_id;
    throw error;
  }
}

async function finishSignIn(
  query: URLSearchParams,
  pending: PendingSignIn,
): Promise<{ accountId: string; accountUserId: string; code: string }> {
  const error = query.get('error');
  if (error) {
    const detail = oneLine(query.get('error_description'));
    throw new SignInRefused(`the identity provider refused: ${oneLine(error, 64)}${detail ? ` (${detail})` : ''}`);
  }
  const code = query.get('code');
  if (!code) throw new SignInRefused('the identity provider sent no code');
  const settings = await getSsoSettings(pending.account_id);
  if (!settings) throw new SignInRefused('single sign-on is no longer set up for this account');
  const idToken = await redeemCode(settings, pending, code);
  let identity: VerifiedIdentity;
  try {
    identity = await verifyIdToken(idToken, {
      issuer: settings.issuer,
      clientId: settings.client_id,
      jwksUri: settings.jwks_uri,
      algorithms: settings.id_token_algorithms,
      nonce: pending.nonce,
    });
  } catch (failure) {
    if (failure instanceof IdTokenRefused) throw new SignInRefused(failure.message);
    if (failure instanceof IssuerCallFailed) throw new SignInRefused(`the identity provider's keys could not be read (${failure.message})`);
    throw failure;
  }
  const { accountUserId, userId } = await accountUserFor(settings, identity);
  const signInCode = generateToken();
  await insertSignInCode(sha256(signInCode), {
    account_id: settings.account_id,
    account_user_id: accountUserId,
    user_id: userId,
    valid_until: now() + SIGN_IN_CODE_TTL_MS,
  });
  return { accountId: settings.account_id, accountUserId, code: signInCode };
}

export async function completeSignIn(query: URLSearchParams): Promise<SignInOutcome> {
  try {
    const done = await signIn(query);
    await recordSignIn(done);
    return { ok: true, code: done.code };
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    await recordSignIn({ accountId: error.accountId, reason: error.message });
    return { ok: false, reason: error.message };
  }
}
