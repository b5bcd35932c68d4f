// Password self-service in the console, in a real browser (Debian's Chromium) against the real local
// service: "Forgot password?" on the sign-in page, the e-mailed link (read from the memory outbox)
// opening the page that sets a new password, the token leaving the address bar and going nowhere but
// the API, and the Profile's password change that keeps the tab signed in while the old token is
// refused. axe-core runs on each new page.
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createMember } from '../support/api-client';
import { chromiumMissing, seriousViolations, startConsole, type ConsoleHarness } from './support/browser';
import { outboxMessages } from '../support/dependencies';

let h: ConsoleHarness;
let page: Page;
const EMAIL = `reese-${Date.now()}@example.com`;
const requests: Request[] = [];
const state: { token?: string; link?: string; password?: string; accountUserId?: string } = {};

const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

/** The message shown next to a field (its aria-describedby error), once the field is marked invalid. */
async function fieldError(label: string): Promise<string | null> {
  const field = page.getByLabel(label, { exact: true });
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
  return page.locator(`#${ids.find((id) => id.endsWith('-error'))}`).textContent();
}

async function signIn(email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const apiAs = (token: string) => new ApiClient(h.service.url, { authorization: `Bearer ${token}` });
const sessionToken = () => page.evaluate<string | null>('sessionStorage.getItem("oncall.session")');

describe.skipIf(chromiumMissing !== null)('password self-service in the console', () => {
  beforeAll(async () => {
    h = await startConsole();
    page = h.page;
    const { accountUser } = await createMember(h.service.admin, { name: 'Reese Reset', email: EMAIL });
    state.accountUserId = accountUser.id;
    page.on('request', (request) => requests.push(request));
    await page.goto(`${h.service.url}/`);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('asks for a reset link from "Forgot password?" on the sign-in page', async () => {
    await heading(/Sign in/);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await heading('Forgot your password?');
    expect(page.url()).toMatch(/#\/forgot-password$/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    expect(await fieldError('Email')).toBe('email is not a valid e-mail address');

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'If the address belongs to a user' }).waitFor();
    const sent = outboxMessages().filter((m) => m.to === EMAIL && m.template === 'password_reset');
    expect(sent).toHaveLength(1);
    const match = /(http\S+\/#\/reset-password\/([\w-]+))/.exec(sent[0].message)!;
    state.link = match[1];
    state.token = match[2];
    expect(state.link.startsWith(`${h.service.url}/#/reset-password/`)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('opens the e-mailed link, takes the token out of the address, and shows a short password’s message next to the field', async () => {
    await page.goto('about:blank');
    await page.goto(state.link!);
    await heading('Choose a new password');
    expect(page.url()).toBe(`${h.service.url}/#/reset-password`);
    expect(await page.evaluate('window.location.href')).not.toContain(state.token);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await fieldError('New password')).toBe('password is too short (at least 8 characters)');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe(
      await page.getByLabel('New password', { exact: true }).getAttribute('id'),
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sets the new password, returns to sign-in saying so, and the new password signs in', async () => {
    state.password = 'reset from the e-mail link';
    await page.getByLabel('New password', { exact: true }).fill(state.password);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await heading(/Sign in/);
    await page.getByText('Your password was changed. Sign in with your new password.').waitFor();

    await signIn(EMAIL, state.password);
    await heading('Alerts');
    const me = await apiAs((await sessionToken())!).get(`/api/v4/account_users/${state.accountUserId}`);
    expect(me.body.user.emails[0].email).toBe(EMAIL);
  });

  it('sent the token to nothing but the reset call', () => {
    const carrying = requests.filter((r) => `${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`.includes(state.token!));
    expect(carrying.map((r) => `${r.method()} ${r.url()}`)).toEqual([
      `POST ${h.service.url}/public/password_reset/${state.token}`,
      `POST ${h.service.url}/public/password_reset/${state.token}`,
    ]);
  });

  it('says a used link is spent, and the bare reset page asks for a link', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto('about:blank');
    await page.goto(state.link!);
    await heading('Choose a new password');
    await page.getByLabel('New password', { exact: true }).fill('another try with it');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This link is invalid, expired or already used' }).waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();

    await page.reload();
    await heading('Choose a new password');
    await page.getByText('This page needs the link from the password reset e-mail').waitFor();
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await heading(/Sign in/);
  });

  it('changes the password on Profile: a wrong current password is shown next to it, then the change succeeds', async () => {
    await signIn(EMAIL, state.password!);
    await heading('Alerts');
    await page.evaluate('window.location.hash = "#/profile"');
    await heading('Profile');
    await page.locator('.loading').waitFor({ state: 'detached' });
    expect(await page.locator('.fields').textContent()).toContain('Notification rule');
    expect(await seriousViolations(page)).toEqual([]);
    const before = (await sessionToken())!;

    await page.getByLabel('Current password', { exact: true }).fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('changed on the profile');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await fieldError('Current password')).toBe('current_password is incorrect');
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBeNull();

    await page.getByLabel('Current password', { exact: true }).fill(state.password!);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await fieldError('New password')).toBe('password is too short (at least 8 characters)');
    expect(await page.getByLabel('Current password', { exact: true }).getAttribute('aria-invalid')).toBeNull();

    await page.getByLabel('New password', { exact: true }).fill('changed on the profile');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The tab's old token is refused; the tab signed in again with the new password and stays signed in.
    const after = (await sessionToken())!;
    expect(after).not.toBe(before);
    expect((await apiAs(before).get('/api/v4/alerts')).status).toBe(401);
    expect((await apiAs(after).get('/api/v4/alerts')).status).toBe(200);
    await page.evaluate('window.location.hash = "#/alerts"');
    await heading('Alerts');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(EMAIL, state.password!);
    await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    await signIn(EMAIL, 'changed on the profile');
    await heading('Alerts');
  });

  it('ran without a page error or a Content-Security-Policy violation', () => {
    // Allowed: the refusals the browser logs for the deliberate mistakes (401, 404, 422).
    const unexpected = h.problems.filter((p) => !/status of (401|404|422) /.test(p));
    expect(unexpected).toEqual([]);
  });
});
