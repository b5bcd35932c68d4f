// The schedule page's coverage, fairness and calendar parts, in a real browser (Debian's Chromium)
// against the real local service: the layers' gaps marked red on the week and listed for the next 4
// weeks (from GET /api/v4/schedules/:id/coverage), the fairness table per period (GET
// /api/v4/schedules/:id/fairness), and "Add to calendar" giving a webcal link whose address serves
// the iCalendar feed; axe-core on the page with each shown.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { chromiumMissing, seriousViolations, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let h: ConsoleHarness;
let page: Page;
let scheduleId: string;

describe.skipIf(chromiumMissing !== null)('coverage and calendar on the schedule page', () => {
  beforeAll(async () => {
    h = await startConsole({ timezoneId: 'UTC' });
    page = h.page;
    const admin = h.service.admin;
    const { accountUser } = await createMember(admin, { name: 'Gale Gapfinder' });
    const schedule = await admin.post('/api/v4/schedules', { name: 'Gappy' });
    expect(schedule.status, schedule.text).toBe(201);
    scheduleId = schedule.body.id;
    const base = Math.floor(Date.now() / HOUR) * HOUR;
    // Layer 1 is covered for the next 4 weeks except [base + 10 d, base + 12 d); layer 2 only for one day.
    for (const [layer, from, to] of [
      [1, base - DAY, base + 10 * DAY],
      [1, base + 12 * DAY, base + 40 * DAY],
      [2, base + DAY, base + 2 * DAY],
    ]) {
      const event = await admin.post('/api/v4/events', {
        start_datetime: new Date(from).toISOString(),
        end_datetime: new Date(to).toISOString(),
        layer,
        time_zone: 'UTC',
        account_user_ids: [accountUser.id],
        schedule_ids: [scheduleId],
      });
      expect(event.status, event.text).toBe(201);
    }
    await signInAsAdmin(h);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('marks the gaps of the week red and lists those of the next 4 weeks per layer', async () => {
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/schedules/${scheduleId}`)}`);
    await page.getByRole('heading', { level: 1, name: 'Gappy' }).waitFor();
    await page.locator('.week').waitFor();

    // Layer 2 has nobody on most days of this week: its gaps are on the week, in red, in words too.
    const gaps = page.locator('.piece[data-kind="gap"]');
    await expect.poll(() => gaps.filter({ hasText: 'Layer 2' }).count()).toBeGreaterThan(0);
    expect(await gaps.first().textContent()).toContain('Nobody on call');
    // The tests' own types have no DOM: the browser's getComputedStyle is typed here.
    type Styles = { getComputedStyle(element: unknown): { backgroundColor: string } };
    const background = await gaps.first().evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(253, 236, 234)');

    const card = page.getByRole('region', { name: 'Gaps in the next 4 weeks' });
    const layer1 = card.locator('.layer-gaps').filter({ has: page.getByRole('heading', { name: 'Layer 1' }) });
    const layer2 = card.locator('.layer-gaps').filter({ has: page.getByRole('heading', { name: 'Layer 2' }) });
    await layer1.locator('.gap').first().waitFor();
    // Layer 1: the one two-day hole; layer 2: before and after its one day.
    expect(await layer1.locator('.gap').allTextContents()).toEqual([expect.stringMatching(/\(2 d\)$/)]);
    expect(await layer2.locator('.gap').count()).toBe(2);
  });

  it('shows who carries the pager: hours, night and weekend hours per person and layer, per period', async () => {
    const card = page.getByRole('region', { name: 'Fairness' });
    const row = (layer: number) =>
      card
        .locator(`tbody tr`)
        .filter({ hasText: 'Gale Gapfinder' })
        .nth(layer - 1);
    await row(2).waitFor();
    const cells = async (layer: number) => (await row(layer).locator('td').allTextContents()).map(Number);
    // Next 4 weeks: layer 1 for 10 + 16 days, layer 2 for its one day; every 24 hours hold 9 night hours.
    const [layer1, hours1, nights1, weekend1, shifts1] = await cells(1);
    expect([layer1, hours1, shifts1]).toEqual([1, 624, 2]);
    expect(nights1).toBeGreaterThanOrEqual(26 * 9 - 9);
    expect(weekend1).toBeLessThanOrEqual(hours1);
    expect(await cells(2)).toEqual([2, 24, 9, expect.any(Number), 1]);
    expect(await row(1).locator('th').textContent()).toContain('Etc/UTC');

    // The last 4 weeks hold the one day of layer 1 before now.
    await card.getByLabel('Period').selectOption('last');
    await expect.poll(async () => (await card.locator('tbody tr').count()) === 1 && (await cells(1))[1]).toBe(24);
    expect((await cells(1)).slice(0, 3)).toEqual([1, 24, 9]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('gives a webcal link to a feed of the schedule, and copies its address', async () => {
    const card = page.getByRole('region', { name: 'Add to calendar' });
    await card.getByRole('button', { name: 'Get a calendar address' }).click();
    const subscribe = card.getByRole('link', { name: 'Subscribe in your calendar app' });
    await subscribe.waitFor();
    const webcal = (await subscribe.getAttribute('href'))!;
    const address = (await card.locator('.calendar-address').textContent())!;
    expect(address).toMatch(new RegExp(`^${h.service.url}/public/calendars/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(webcal).toBe(address.replace(/^http:/, 'webcal:'));

    const feed = await fetch(address);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await feed.text();
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    expect(text).toContain('SUMMARY:On call: Gale Gapfinder (layer 2\\, Gappy)');

    await card.getByRole('button', { name: 'Copy' }).click();
    await card.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(address);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('ran without a page error or a Content-Security-Policy violation', () => {
    expect(h.problems).toEqual([]);
  });
});
