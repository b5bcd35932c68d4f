// The Audit page in a real browser (Debian's Chromium) against the real local service: a team made
// and renamed and an API key made by the admin, a sign-in; the table newest first with each change
// as before → after and the key's hash redacted, the filters (object type, action, actor, a date
// range), and axe-core over the page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, seriousViolations, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

let h: ConsoleHarness;
let page: Page;
let teamId: string;
let me: string;

const rows = () => page.locator('table.audit-table tbody tr');
const rowTexts = async () => (await rows().allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

describe.skipIf(chromiumMissing !== null)('the Audit page', () => {
  beforeAll(async () => {
    h = await startConsole({ timezoneId: 'UTC' });
    page = h.page;
    const admin = h.service.admin;
    me = (await admin.get('/api/v4/api_keys')).body.data[0].account_user_id as string;
    const team = await admin.post('/api/v4/teams', { name: 'Audit Team', member_account_user_ids: [me], admin_account_user_ids: [me] });
    expect(team.status).toBe(201);
    teamId = team.body.id;
    expect((await admin.put(`/api/v4/teams/${teamId}`, { name: 'Audit Team Renamed' })).status).toBe(200);
    expect((await admin.post('/api/v4/api_keys', { name: 'Audited key' })).status).toBe(201);
    await signInAsAdmin(h);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('lists the trail newest first with each change before → after, secrets redacted', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    await rows().first().waitFor();
    const texts = await rowTexts();
    // The console's own sign-in is the newest; the key came after the team's rename.
    expect(texts[0]).toMatch(/sign in/);
    const key = texts.findIndex((t) => t.includes('api key') && t.includes('Audited key'));
    const renamed = texts.findIndex((t) => t.includes('Audit Team → Audit Team Renamed'));
    expect(key).toBeGreaterThan(0);
    expect(renamed).toBeGreaterThan(key);
    expect(texts[key]).toMatch(/token_hash\s*— → \[redacted\]/);
  });

  it('filters by object type, action, actor and date range', async () => {
    await page.getByLabel('Object type').selectOption('team');
    await page.getByLabel('Action').selectOption('update');
    await page.locator('#audit-summary', { hasText: '1 audit event' }).waitFor();
    expect(await rowTexts()).toEqual([expect.stringContaining('Audit Team → Audit Team Renamed')]);

    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('From (UTC)').fill(today);
    await page.getByLabel('To (UTC)').fill(today);
    await page.getByLabel('To (UTC)').dispatchEvent('change');
    await page.locator('#audit-summary', { hasText: '1 audit event' }).waitFor();
    await page.getByLabel('From (UTC)').fill('2001-01-01');
    await page.getByLabel('To (UTC)').fill('2001-01-02');
    await page.getByLabel('To (UTC)').dispatchEvent('change');
    await page.locator('#audit-summary', { hasText: 'No audit events match.' }).waitFor();
    expect(await rows().count()).toBe(0);
    await page.getByLabel('From (UTC)').fill('');
    await page.getByLabel('From (UTC)').dispatchEvent('change');
    await page.getByLabel('To (UTC)').fill('');
    await page.getByLabel('To (UTC)').dispatchEvent('change');

    await page.getByLabel('Object type').selectOption('');
    await page.getByLabel('Action').selectOption('sign_in');
    await page.getByLabel('Actor').selectOption({ value: me });
    await expect.poll(async () => (await rowTexts()).length > 0 && (await rowTexts()).every((t) => t.includes('sign in'))).toBe(true);
    expect(page.url()).toContain(`actor_id=${me}`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('ran without a page error or a Content-Security-Policy violation', () => {
    expect(h.problems).toEqual([]);
  });
});
