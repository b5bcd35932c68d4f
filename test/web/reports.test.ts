// The Reports page in a real browser (Debian's Chromium) against the real local service: two alerts
// paged to one person today, one acknowledged by them and one resolved; the page's charts, the
// figures behind each chart as a table, the team filter, and axe-core over the page with the tables
// open.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertTo, person, team, type Person, type Team } from '../escalation/support';
import { settle } from '../support/quiescence';
import { chromiumMissing, seriousViolations, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

let h: ConsoleHarness;
let page: Page;
let paged: Person;
let paging: Team;
const today = new Date().toISOString().slice(5, 10);

/** The rows of the table behind a chart of a card, as text cells. */
async function tableOf(cardName: string): Promise<string[][]> {
  const card = page.getByRole('region', { name: cardName });
  const details = card.locator('details.chart-table');
  if (!(await details.evaluate((el) => (el as unknown as { open: boolean }).open)))
    await card.getByText('Show the figures as a table').click();
  const rows = card.locator('details.chart-table tbody tr');
  await rows.first().waitFor();
  return Promise.all((await rows.all()).map(async (row) => (await row.locator('th, td').allTextContents()).map((t) => t.trim())));
}

describe.skipIf(chromiumMissing !== null)('the Reports page', () => {
  beforeAll(async () => {
    h = await startConsole({ timezoneId: 'UTC' });
    page = h.page;
    const admin = h.service.admin;
    paged = await person(admin, { name: 'Rhea Reportable' });
    paging = await team(admin, { layers: [[paged.id]], timeouts: [60] });
    const first = await alertTo(admin, { teams: [paging.id] });
    const second = await alertTo(admin, { teams: [paging.id] });
    await settle(h.service);
    expect((await paged.client.post(`/api/v4/alerts/${first.id}/acknowledge`)).status).toBe(200);
    expect((await admin.post(`/api/v4/alerts/${second.id}/resolve`)).status).toBe(200);
    await settle(h.service);
    await signInAsAdmin(h);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('draws the alerts per day and the times, each with its figures as a table', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    await page.getByRole('img', { name: /^Alerts per day/ }).waitFor();
    // The last 30 UTC days, today last: two created, one acknowledged, one resolved.
    const days = await tableOf('Alerts per day');
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual([today, '2', '1', '1', '0']);
    expect(days[0].slice(1)).toEqual(['0', '0', '0', '0']);
    expect(await page.getByRole('status').filter({ hasText: 'alerts created for the account' }).textContent()).toMatch(
      /^2 alerts created for the account: 1 acknowledged \(median [\d.]+ s\), 1 resolved \(median [\d.]+ s\), 0 dropped\.$/,
    );
    await page.getByRole('img', { name: /^Time to acknowledge per day/ }).waitFor();
    const acknowledge = await tableOf('Time to acknowledge');
    expect(acknowledge.at(-1)?.[0]).toBe(today);
    expect(acknowledge.at(-1)?.[1]).toMatch(/^[\d.]+ (s|min)$/);
    expect(acknowledge[0].slice(1)).toEqual(['—', '—', '—']);
  });

  it('draws pages per person and channel and the night pages, for the account and for one team', async () => {
    await page.getByRole('img', { name: 'Pages per person and channel' }).waitFor();
    // Both pages went out on the person's default channels (push and e-mail); they acknowledged one.
    expect(await tableOf('Pages per person and channel')).toEqual([['Rhea Reportable', '2', '2', '0', '0', '0', '4', '1']]);
    const nights = await tableOf('Night pages');
    expect(nights).toHaveLength(1);
    expect(nights[0][0]).toBe('Rhea Reportable');
    expect(nights[0][2]).toBe('4');

    await page.getByLabel('Team', { exact: true }).selectOption({ value: paging.id });
    await page.getByRole('status').filter({ hasText: 'alerts created for Team' }).waitFor();
    await page.getByLabel('Per', { exact: true }).selectOption('week');
    await page.getByRole('img', { name: /^Alerts per week/ }).waitFor();
    const weeks = await tableOf('Alerts per week');
    expect(weeks.length).toBeGreaterThanOrEqual(5);
    expect(weeks.at(-1)?.slice(1)).toEqual(['2', '1', '1', '0']);
    expect(await tableOf('Pages per person and channel')).toEqual([['Rhea Reportable', '2', '2', '0', '0', '0', '4', '1']]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('ran without a page error or a Content-Security-Policy violation', () => {
    expect(h.problems).toEqual([]);
  });
});
