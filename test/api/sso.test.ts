// Single sign-on with OpenID Connect (contract §16, docs/api.md#single-sign-on) through the real local
// server against a real OpenID provider on loopback (`oidc-provider`, test/support/oidc-issuer.ts),
// and a stand-in provider (test/support/oidc-stand-in.ts) for the ID tokens a real provider never
// issues: another audience, an expired one, a signature by a key it does not publish. The service
// reaches both through its own guarded HTTP client; ALLOW_INSECURE_SSO_ISSUER lets it use plain
// http on loopback (sso-issuer-guard.test.ts runs without it).
// @moto: the pending sign-in and the sign-in code (conditional deletes), the settings' versioned put.
// @module-tag moto
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getSsoSettings } from '../../lib/auth/sso-settings-store';
import { ApiClient, createMember } from '../support/api-client';
import { outboxMessages, testClock } from '../support/dependencies';
import { OidcIssuer } from '../support/oidc-issuer';
import { OidcStandIn } from '../support/oidc-stand-in';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signupAccount, startService, type TestService } from '../support/runtime';

const CLIENT = { client_id: 'oncall-console', client_secret: 'a client secret with spaces & symbols: %+/' };
const OTHER_CLIENT = { client_id: 'oncall-other', client_secret: 'the other account secret' };

let service: TestService;
let issuer: OidcIssuer;
let standIn: OidcStandIn;
let callbackUrl: string;
let accountId: string;
let other: { client: ApiClient; accountId: string; email: string };

beforeAll(async () => {
  service = await startService({ env: { ALLOW_INSECURE_SSO_ISSUER: 'true' } });
  callbackUrl = `${service.url}/public/sso/callback`;
  // ID tokens valid 30 s, so that a test can move the service's clock past one without passing the sign-in's 10 minutes.
  issuer = await OidcIssuer.start([{ ...CLIENT, redirect_uris: [callbackUrl] }], { idTokenSeconds: 30 });
  standIn = await OidcStandIn.start({ [OTHER_CLIENT.client_id]: OTHER_CLIENT.client_secret });
  accountId = (await service.admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
  other = await signupAccount(service, 'Globex');
});
// No test starts where another left the clock.
afterEach(() => testClock.reset());
afterAll(async () => {
  testClock.reset();
  await service?.stop();
  await issuer?.close();
  await standIn?.close();
});

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const messages = (res: { body: any }) => (res.body?.errors ?? []).map((e: { message: string }) => e.message).join(' | ');

/** A GET that does not follow redirects, as the test reads where the browser is sent. */
async function open(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
}

async function start(query: Record<string, string>) {
  return open(`${service.url}/public/sso/start?${new URLSearchParams(query).toString()}`);
}

/** Starts a sign-in for `email` and brings the browser back from the real provider: the callback address, not yet opened. */
async function throughIssuer(email: string, login = email, change?: (url: URL) => void): Promise<string> {
  const started = await start({ email });
  expect(started.status, started.text).toBe(302);
  const authorization = new URL(started.location!);
  change?.(authorization);
  const back = await issuer.signInAt(authorization.toString(), login);
  expect(`${back.origin}${back.pathname}`).toBe(callbackUrl);
  return back.toString();
}

/** The sign-in code of a callback that succeeded. */
function codeOf(callback: { status: number; location: string | null; text: string }): string {
  expect(callback.status, callback.text).toBe(302);
  const match = /\/#\/sso\/([\w-]+)$/.exec(callback.location!);
  expect(match, callback.location!).not.toBeNull();
  expect(callback.location!.startsWith(`${service.url}/#/sso/`)).toBe(true);
  return match![1];
}

async function exchange(code: string) {
  return service.anonymous.post('/public/sso/exchange', { code });
}

function claimsOf(token: string): { sub: string; acc: string; acu: string } {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string; acc: string; acu: string };
}

/** A member of the main account whose address the provider knows (verified unless told otherwise). */
async function member(options: { verified?: boolean; roles?: Record<string, boolean> } = {}) {
  const email = unique('member');
  const { accountUser, client } = await createMember(service.admin, { email, roles: options.roles });
  issuer.addPerson({ email, email_verified: options.verified ?? true, name: 'Member' });
  const password = /Password: (\S+)/.exec(outboxMessages().find((m) => m.to === email)!.message)![1];
  return { email, accountUser, client, password };
}

describe('settings', () => {
  it('are 404 before, admin only, and refuse missing fields and unreadable issuers naming the field, changing nothing', async () => {
    expect((await service.admin.get('/api/v4/sso')).status).toBe(404);
    const { client: nonAdmin } = await member();
    const refused = await nonAdmin.put('/api/v4/sso', { issuer: issuer.issuer, ...CLIENT });
    expect(refused.status).toBe(403);

    const missing = await service.admin.put('/api/v4/sso', {});
    expect(missing.status).toBe(422);
    expect(messages(missing)).toMatch(/issuer/);
    expect(messages(missing)).toMatch(/client_id/);
    expect(messages(missing)).toMatch(/client_secret/);

    const notUrl = await service.admin.put('/api/v4/sso', { issuer: 'not a url', ...CLIENT });
    expect(notUrl.status).toBe(422);
    expect(messages(notUrl)).toMatch(/issuer/);

    // Nothing listens there: the discovery document cannot be read.
    const closed = await service.admin.put('/api/v4/sso', { issuer: 'http://127.0.0.1:9', ...CLIENT });
    expect(closed.status).toBe(422);
    expect(messages(closed)).toMatch(/^issuer could not be used/);

    // The document is read, but names another issuer.
    const elsewhere = await service.admin.put('/api/v4/sso', { issuer: `${issuer.issuer}/tenant`, ...CLIENT });
    expect(elsewhere.status).toBe(422);
    expect(messages(elsewhere)).toMatch(/issuer could not be used/);

    expect((await service.admin.get('/api/v4/sso')).status).toBe(404);
    expect(await getSsoSettings(accountId)).toBeNull();
  });

  it('are saved from the discovery document, the secret sealed and never shown', async () => {
    const saved = await service.admin.put('/api/v4/sso', { issuer: `${issuer.issuer}/`, ...CLIENT, default_roles: { broadcaster: true } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      account_id: accountId,
      issuer: issuer.issuer,
      client_id: CLIENT.client_id,
      enforce: false,
      create_users: false,
      default_roles: { admin: false, billing: false, broadcaster: true, communicator: false },
      authorization_endpoint: `${issuer.issuer}/auth`,
      token_endpoint: `${issuer.issuer}/token`,
      jwks_uri: `${issuer.issuer}/jwks`,
      redirect_uri: callbackUrl,
    });
    expect(saved.text).not.toContain(CLIENT.client_secret);
    expect(saved.text).not.toContain('secret');
    const read = await service.admin.get('/api/v4/sso');
    expect(read.body).toEqual(saved.body);
    const stored = await getSsoSettings(accountId);
    expect(stored!.client_secret_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(CLIENT.client_secret);

    // A later PUT changes what it sends and keeps the secret.
    const changed = await service.admin.put('/api/v4/sso', { default_roles: { broadcaster: false } });
    expect(changed.status).toBe(200);
    expect(changed.body.default_roles.broadcaster).toBe(false);
    expect((await getSsoSettings(accountId))!.client_secret_sealed).toBe(stored!.client_secret_sealed);

    const other2 = await other.client.put('/api/v4/sso', { issuer: standIn.issuer, ...OTHER_CLIENT });
    expect(other2.status, other2.text).toBe(200);
    expect(other2.body.account_id).toBe(other.accountId);
  });
});

describe('signing in through the provider', () => {
  it('redirects with the code flow, PKCE S256, state and nonce, and signs the member in once', async () => {
    const { email, accountUser } = await member();
    const started = await start({ email });
    expect(started.status).toBe(302);
    expect(started.headers.get('cache-control')).toBe('no-store');
    const authorization = new URL(started.location!);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${issuer.issuer}/auth`);
    const params = authorization.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(CLIENT.client_id);
    expect(params.get('redirect_uri')).toBe(callbackUrl);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{43}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(params.get('login_hint')).toBe(email);

    const back = await issuer.signInAt(authorization.toString(), email);
    const code = codeOf(await open(back.toString()));
    const exchanged = await exchange(code);
    expect(exchanged.status, exchanged.text).toBe(200);
    const claims = claimsOf(exchanged.body.token);
    expect(claims).toMatchObject({ acc: accountId, acu: accountUser.id, sub: accountUser.user_id });
    const signedIn = new ApiClient(service.url, { authorization: `Bearer ${exchanged.body.token}` });
    const me = await signedIn.get(`/api/v4/account_users/${accountUser.id}`);
    expect(me.status).toBe(200);
    expect(me.body.user.emails[0].email).toBe(email);

    // The code works once.
    const again = await exchange(code);
    expect(again.status).toBe(401);
  });

  it('is an audit event of the account, and so is a refused one (docs/api.md#audit-trail)', async () => {
    const { email, accountUser } = await member();
    const code = codeOf(await open(await throughIssuer(email)));
    expect((await exchange(code)).status).toBe(200);
    const refused = await open(await throughIssuer(email, email, (url) => url.searchParams.set('nonce', 'not-the-sign-ins-nonce')));
    expect(refused.status).toBe(403);

    const trail = await service.admin.get(`/api/v4/audit_events?object_id=${accountUser.id}&action=sign_in`);
    expect(trail.status, trail.text).toBe(200);
    const [signedIn] = trail.body.data;
    // Refused before the token named anyone: the account's event names no account user.
    const [failed] = (await service.admin.get('/api/v4/audit_events?action=sign_in_failed&limit=1')).body.data;
    expect(signedIn).toMatchObject({
      action: 'sign_in',
      actor_type: 'account_user',
      actor_id: accountUser.id,
      object_type: 'account_user',
      changes: { method: [null, 'sso'] },
    });
    expect(failed).toMatchObject({ action: 'sign_in_failed', actor_type: 'system', object_id: null, changes: { method: [null, 'sso'] } });
    expect(failed.changes.reason[1]).toContain('nonce');
    // Another account's admin sees none of it.
    expect((await other.client.get(`/api/v4/audit_events?object_id=${accountUser.id}`)).body.total_count).toBe(0);

    // The settings' changes are events too, the client secret's seal redacted.
    const settings = (await service.admin.get('/api/v4/audit_events?object_type=sso_settings&limit=100')).body.data;
    expect(settings.at(-1)).toMatchObject({
      action: 'create',
      object_id: accountId,
      changes: { client_secret_sealed: [null, '[redacted]'] },
    });
    expect(JSON.stringify(settings)).not.toContain(CLIENT.client_secret);
  });

  it('refuses a replayed callback (the state is spent) with a page naming the reason', async () => {
    const { email } = await member();
    const callback = await throughIssuer(email);
    codeOf(await open(callback));
    const replayed = await open(callback);
    expect(replayed.status).toBe(403);
    expect(replayed.headers.get('content-type')).toMatch(/text\/html/);
    expect(replayed.text).toMatch(/unknown, expired or already used \(state\)/);
    expect(replayed.text).not.toMatch(/#\/sso\//);
  });

  it('refuses an ID token whose nonce is not the sign-in’s', async () => {
    const { email } = await member();
    const callback = await throughIssuer(email, email, (url) => url.searchParams.set('nonce', 'a-nonce-the-service-never-sent'));
    const refused = await open(callback);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('the nonce of this sign-in');
  });

  it('refuses an expired ID token', async () => {
    const { email } = await member();
    const callback = await throughIssuer(email);
    // The provider's tokens are valid 30 s; the service forgives 60 s of clock difference.
    testClock.advance(3 * 60_000);
    const refused = await open(callback);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('expired (exp)');
  });

  it('refuses an address the provider has not verified', async () => {
    const { email } = await member({ verified: false });
    const refused = await open(await throughIssuer(email));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('has not verified the address');
  });

  it('refuses a person who is not in the account unless create_users, then creates them with the default roles', async () => {
    const email = unique('newcomer');
    issuer.addPerson({ email, email_verified: true, name: 'New <Comer>' });
    // Not a user of the account: start by account, the provider says who it is.
    const startedByAccount = await start({ account_id: accountId });
    expect(startedByAccount.status).toBe(302);
    const refused = await open((await issuer.signInAt(startedByAccount.location!, email)).toString());
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(`${email} is not a user of this account`);

    expect((await service.admin.put('/api/v4/sso', { create_users: true, default_roles: { broadcaster: true } })).status).toBe(200);
    const again = await start({ account_id: accountId });
    const code = codeOf(await open((await issuer.signInAt(again.location!, email)).toString()));
    const { token } = (await exchange(code)).body as { token: string };
    const created = await service.admin.get(`/api/v4/account_users/${claimsOf(token).acu}`);
    expect(created.status).toBe(200);
    expect(created.body.user.name).toBe('New <Comer>');
    expect(created.body.user.emails[0].email).toBe(email);
    expect(created.body.roles).toEqual({ admin: false, billing: false, broadcaster: true, communicator: false });
    // Nobody was told a password.
    expect(outboxMessages().filter((m) => m.to === email)).toEqual([]);
    expect((await service.admin.put('/api/v4/sso', { create_users: false, default_roles: { broadcaster: false } })).status).toBe(200);
  });

  it('gives a sign-in code that lasts 60 seconds', async () => {
    const { email } = await member();
    const code = codeOf(await open(await throughIssuer(email)));
    testClock.advance(61_000);
    expect((await exchange(code)).status).toBe(401);
    expect((await exchange('not-a-code')).status).toBe(401);
    expect((await service.anonymous.post('/public/sso/exchange', {})).status).toBe(400);
  });
});

describe('ID tokens a real provider does not issue (stand-in)', () => {
  async function standInCallback(email: string) {
    const started = await start({ account_id: other.accountId, email });
    expect(started.status).toBe(302);
    return open((await standIn.signInAt(started.location!, email)).toString());
  }

  it('signs in with a good token, sending the verifier and the secret', async () => {
    const code = codeOf(await standInCallback(other.email));
    const token = (await exchange(code)).body.token as string;
    expect(claimsOf(token).acc).toBe(other.accountId);
    const form = standIn.tokenRequests.at(-1)!;
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code_verifier')).toMatch(/^[\w-]{43}$/);
  });

  it('refuses another audience', async () => {
    standIn.twist = { claims: { aud: 'someone-else' } };
    const refused = await standInCallback(other.email);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('issued for another client (aud)');
  });

  it('refuses several audiences without ours as the authorized party', async () => {
    standIn.twist = { claims: { aud: [OTHER_CLIENT.client_id, 'someone-else'], azp: 'someone-else' } };
    const refused = await standInCallback(other.email);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('(azp)');
  });

  it('refuses an expired token and another issuer', async () => {
    const past = Math.floor(Date.now() / 1000) - 600;
    standIn.twist = { claims: { iat: past - 300, exp: past } };
    expect((await standInCallback(other.email)).text).toContain('expired (exp)');
    standIn.twist = { claims: { iss: 'https://issuer.example.com' } };
    expect((await standInCallback(other.email)).text).toContain('another issuer (iss)');
  });

  it("takes Microsoft Entra ID's xms_edov where email_verified is absent, and only when true", async () => {
    standIn.twist = { claims: { email_verified: undefined, xms_edov: true } };
    codeOf(await standInCallback(other.email));
    standIn.twist = { claims: { email_verified: undefined, xms_edov: false } };
    expect((await standInCallback(other.email)).text).toContain('has not verified the address');
    standIn.twist = { claims: { email_verified: false, xms_edov: true } };
    expect((await standInCallback(other.email)).text).toContain('has not verified the address');
  });

  it('refuses a signature by a key the issuer does not publish', async () => {
    standIn.twist = { foreignKey: true };
    const refused = await standInCallback(other.email);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('signature does not match the issuer&#39;s keys');
  });

  it('escapes what the provider says in its refusal', async () => {
    const started = await start({ account_id: other.accountId });
    const state = new URL(started.location!).searchParams.get('state')!;
    const refused = await open(
      `${callbackUrl}?state=${state}&error=access_denied&error_description=${encodeURIComponent('<script>alert(1)</script>')}`,
    );
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(refused.text).not.toContain('<script>');
  });
});

describe('the account of an address', () => {
  it('is the one with single sign-on; several are a choice the console offers', async () => {
    expect((await start({ email: unique('nobody') })).status).toBe(404);
    expect((await service.anonymous.get(`/public/sso/accounts?email=${unique('nobody')}`)).body).toEqual({ data: [] });
    expect((await service.anonymous.get('/public/sso/accounts')).status).toBe(400);

    // A person in both accounts.
    const { email } = await member();
    const joined = await other.client.post('/api/v4/account_users', {
      user_attributes: { name: 'Member', emails_attributes: [{ email }] },
    });
    expect(joined.status).toBe(201);
    const choices = await service.anonymous.get(`/public/sso/accounts?email=${encodeURIComponent(email)}`);
    expect(choices.status).toBe(200);
    expect(new Set((choices.body.data as { account_id: string }[]).map((c) => c.account_id))).toEqual(
      new Set([accountId, other.accountId]),
    );
    expect((choices.body.data as { account_name: string }[]).map((c) => c.account_name)).toContain('Globex Inc');
    const several = await start({ email });
    expect(several.status).toBe(409);
    const picked = await start({ email, account_id: other.accountId });
    expect(picked.status).toBe(302);
    expect(picked.location!.startsWith(`${standIn.issuer}/authorize?`)).toBe(true);
  });
});

describe('enforce', () => {
  it('refuses password sign-in to members but not to admins', async () => {
    const { email, password } = await member();
    expect((await service.anonymous.post('/public/login', { username: email, password })).status).toBe(200);
    expect((await service.admin.put('/api/v4/sso', { enforce: true })).status).toBe(200);
    try {
      const refused = await service.anonymous.post('/public/login', { username: email, password });
      expect(refused.status).toBe(403);
      expect(messages(refused)).toMatch(/single sign-on/);
      // A wrong password is still a 401: the refusal tells nothing to someone without it.
      expect((await service.anonymous.post('/public/login', { username: email, password: 'wrong password' })).status).toBe(401);
      const admin = await service.anonymous.post('/public/login', { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      expect(admin.status).toBe(200);
      // Single sign-on itself still signs the member in.
      const code = codeOf(await open(await throughIssuer(email)));
      expect((await exchange(code)).status).toBe(200);
    } finally {
      expect((await service.admin.put('/api/v4/sso', { enforce: false })).status).toBe(200);
    }
  });
});

describe('turning it off', () => {
  it('is an admin’s, after which sign-ins start nowhere', async () => {
    const { client: nonAdmin } = await member();
    expect((await nonAdmin.get('/api/v4/sso')).status).toBe(200);
    expect((await nonAdmin.delete('/api/v4/sso')).status).toBe(403);
    const started = await start({ account_id: accountId });
    expect((await service.admin.delete('/api/v4/sso')).status).toBe(204);
    expect((await service.admin.get('/api/v4/sso')).status).toBe(404);
    expect((await service.admin.delete('/api/v4/sso')).status).toBe(404);
    expect((await start({ account_id: accountId })).status).toBe(404);
    // A sign-in under way when it was turned off fails at the callback.
    const email = unique('late');
    issuer.addPerson({ email, email_verified: true });
    const refused = await open((await issuer.signInAt(started.location!, email)).toString());
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('no longer set up');
  });
});
