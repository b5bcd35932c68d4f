// Single sign-on in the console, in a real browser (Debian's Chromium) against the real local service
// and a real OpenID provider on loopback (oidc-provider's own login and consent pages): "Sign in with
// SSO" asks for the address, then the account when the address has several; the browser goes through
// the provider and comes back signed in, the one-time code gone from the address bar. The admin's
// settings page shows the redirect URI to register and never the secret. axe-core runs on each page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createMember } from '../support/api-client';
import { OidcIssuer } from '../support/oidc-issuer';
import { signupAccount } from '../support/runtime';
import { chromiumMissing, seriousViolations, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

const CLIENT = { client_id: 'console', client_secret: 'the console client secret' };
let h: ConsoleHarness;
let page: Page;
let issuer: OidcIssuer;
const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
const sessionToken = () => page.evaluate<string | null>('sessionStorage.getItem("oncall.session")');

describe.skipIf(chromiumMissing !== null)('single sign-on in the console', () => {
  beforeAll(async () => {
    h = await startConsole({ env: { ALLOW_INSECURE_SSO_ISSUER: 'true' } });
    page = h.page;
    issuer = await OidcIssuer.start([{ ...CLIENT, redirect_uris: [`${h.service.url}/public/sso/callback`] }]);
    const saved = await h.service.admin.put('/api/v4/sso', { issuer: issuer.issuer, ...CLIENT });
    expect(saved.status, saved.text).toBe(200);
  });

  afterAll(async () => {
    await h?.stop();
    await issuer?.close();
  });

  /**
   * Through the provider's own pages: the login form (the address is already filled in), then
   * consent, and back to the console. What the provider's pages log (their fonts and favicon, which
   * this machine cannot fetch) is not the console's: the problems are counted from the return on.
   */
  async function throughProvider() {
    await page.waitForURL((url) => url.origin === issuer.issuer);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === h.service.url);
    h.problems.splice(0);
  }

  /** A new sign-in at the provider, as another person: its session of the last one is forgotten. */
  async function signedOut() {
    await page.context().clearCookies();
    await page.goto(`${h.service.url}/`);
    await page.evaluate('sessionStorage.clear()');
    await page.reload();
  }

  it('signs a member in through the provider from "Sign in with SSO"', async () => {
    const email = `sso-${Date.now()}@example.com`;
    const { accountUser } = await createMember(h.service.admin, { name: 'Sam Single', email });
    issuer.addPerson({ email, email_verified: true, name: 'Sam Single' });

    await page.goto(`${h.service.url}/`);
    await heading(/Sign in/);
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.getByRole('button', { name: 'Continue' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('status').filter({ hasText: 'Single sign-on is not set up for this address' }).waitFor();

    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await throughProvider();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(page.url()).not.toMatch(/#\/sso/);
    const claims = JSON.parse(Buffer.from((await sessionToken())!.split('.')[1], 'base64url').toString()) as { acu: string };
    expect(claims.acu).toBe(accountUser.id);
    expect(h.problems).toEqual([]);
  });

  it('asks which account when the address signs in to several', async () => {
    await signedOut();
    const email = `both-${Date.now()}@example.com`;
    await createMember(h.service.admin, { name: 'Bo Both', email });
    const other = await signupAccount(h.service, 'Initech');
    expect((await other.client.put('/api/v4/sso', { issuer: issuer.issuer, ...CLIENT })).status).toBe(200);
    const joined = await other.client.post('/api/v4/account_users', {
      user_attributes: { name: 'Bo Both', emails_attributes: [{ email }] },
    });
    expect(joined.status).toBe(201);
    issuer.addPerson({ email, email_verified: true });

    await page.goto(`${h.service.url}/#/sign-in-with-sso`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Initech Inc' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Continue' }).click();
    await throughProvider();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const claims = JSON.parse(Buffer.from((await sessionToken())!.split('.')[1], 'base64url').toString()) as { acc: string; acu: string };
    expect(claims).toMatchObject({ acc: other.accountId, acu: joined.body.id });
  });

  it('shows an admin the settings, the redirect URI to register, and never the secret', async () => {
    await signedOut();
    await signInAsAdmin(h);
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await heading('Single sign-on');
    await page.getByText(`${h.service.url}/public/sso/callback`).waitFor();
    expect(await page.content()).not.toContain(CLIENT.client_secret);
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Refuse password sign-in to everyone but admins').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await h.service.admin.get('/api/v4/sso')).body.enforce).toBe(true);

    expect(h.problems).toEqual([]);

    await page.getByLabel('Issuer URL').fill('http://127.0.0.1:9');
    // The save's answer first (the service tries the issuer's discovery document: on a busy machine
    // that round trip alone outlasted the poll's default second), then the field it marks.
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/v4/sso') && response.request().method() !== 'GET');
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await answered).status()).toBeGreaterThanOrEqual(400);
    const field = page.getByLabel('Issuer URL');
    await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 5_000 }).toBe('true');
    expect((await h.service.admin.get('/api/v4/sso')).body.issuer).toBe(issuer.issuer);
  });

  it('lets an admin make a SCIM token, shown once beside the SCIM base URL, and revoke it', async () => {
    await signedOut();
    await signInAsAdmin(h);
    // The last test's refused save logged its 422: this one counts its own problems.
    h.problems.splice(0);
    await page.goto(`${h.service.url}/#/single-sign-on`);
    await heading('Single sign-on');
    await page.getByText(`${h.service.url}/scim/v2`).first().waitFor();
    await page.getByLabel('Token name').fill('Okta');
    await page.getByRole('button', { name: 'Make a token' }).click();
    const shown = page.locator('code', { hasText: /^scim_/ });
    await shown.waitFor();
    const token = (await shown.textContent())!;
    // Copy beside the base URL, the redirect URI and the token.
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    // The token the page showed works at /scim/v2.
    const scim = new ApiClient(h.service.url, { authorization: `Bearer ${token}` });
    expect((await scim.get('/scim/v2/ServiceProviderConfig')).status).toBe(200);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke the SCIM token Okta' }).click();
    await page.getByText('No SCIM tokens.').waitFor();
    expect((await scim.get('/scim/v2/ServiceProviderConfig')).status).toBe(401);
    expect(h.problems).toEqual([]);
  });
});
