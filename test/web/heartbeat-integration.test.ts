// A heartbeat integration in the console, in a real browser (Debian's Chromium) against the real local
// service (docs/api.md#heartbeats): created from the form with its interval and grace (the API's
// message about a too short interval shown beside that field), its page showing waiting, then up with
// the last beat and the next deadline once the copied curl line's address received a beat, the beat
// listed among the incoming requests, and axe-core on each state.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, seriousViolations, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

let h: ConsoleHarness;
let page: Page;

async function open(hash: string, heading: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const heartbeatCard = () => page.getByRole('region', { name: 'Heartbeat' });

describe.skipIf(chromiumMissing !== null)('a heartbeat integration in the console', () => {
  beforeAll(async () => {
    h = await startConsole();
    page = h.page;
    await signInAsAdmin(h);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('creates one with its interval and grace, the API’s refusal beside the field at fault', async () => {
    await open('#/integrations', 'Integrations');
    await page.getByLabel('Name').fill('Nightly backup');
    await page.getByLabel('Type').selectOption({ label: 'Heartbeat' });
    const interval = page.getByLabel('Beat at least every (seconds)');
    await interval.fill('30');
    await page.getByLabel('Grace (seconds)').fill('120');
    await page.getByRole('group', { name: 'Send alerts to people' }).getByRole('checkbox').first().check();
    expect(await seriousViolations(page)).toEqual([]);
    // 30 passes the browser's own check only if it has none: the field says min 60, so lift it to
    // let the API refuse it and show its message beside the field.
    await interval.evaluate((input) => input.removeAttribute('min'));
    await page.getByRole('button', { name: 'Create integration' }).click();
    await expect.poll(() => interval.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await interval.getAttribute('aria-describedby'))!.split(' ');
    const messages = await Promise.all(describedBy.map((id) => page.locator(`#${id}`).textContent()));
    expect(messages.some((m) => m?.startsWith('options.interval_seconds must be a whole number of seconds from 60'))).toBe(true);
    expect((await h.service.admin.get('/api/v4/integrations?q=Nightly%20backup')).body.total_count).toBe(0);

    await interval.fill('600');
    await page.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nightly backup' }).waitFor();
    const listed = (await h.service.admin.get('/api/v4/integrations?q=Nightly%20backup')).body.data[0];
    expect(listed.integration_type.slug).toBe('heartbeat');
    expect(listed.options).toMatchObject({ interval_seconds: 600, grace_seconds: 120 });
    expect(listed.account_user_ids).toHaveLength(1);
  });

  it('shows waiting, then up with the last beat once the curl line’s address got a beat, and lists the beat', async () => {
    const integration = (await h.service.admin.get('/api/v4/integrations?q=Nightly%20backup')).body.data[0];
    await open(`#/integrations/${integration.id}`, 'Nightly backup');
    await heartbeatCard().getByText('Waiting for the first beat').waitFor();
    expect(await heartbeatCard().getByText('None yet').count()).toBe(1);
    const expected = `curl -fsS -X POST ${h.service.url}/integration/${integration.prefix_id}`;
    expect(await heartbeatCard().locator('code').textContent()).toBe(expected);
    await heartbeatCard().getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(expected);
    expect(await seriousViolations(page)).toEqual([]);

    // What the copied line does: a POST without credentials.
    const res = await fetch(expected.split(' ').at(-1)!, { method: 'POST' });
    expect(res.status).toBe(202);
    const after = (await h.service.admin.get(`/api/v4/integrations/${integration.id}`)).body.heartbeat;
    expect(after.status).toBe('up');

    // The page polls its incoming requests; the state comes with a reload of the integration.
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Beat received');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Nightly backup' }).waitFor();
    await heartbeatCard().getByText('Up', { exact: true }).waitFor();
    const times = heartbeatCard().locator('time');
    expect(await times.nth(0).getAttribute('datetime')).toBe(after.last_beat_at);
    expect(await times.nth(1).getAttribute('datetime')).toBe(after.next_due_at);
    expect(await seriousViolations(page)).toEqual([]);

    // The list shows the state beside the type.
    await open('#/integrations', 'Integrations');
    const listed = page.locator(`tr[data-integration-id="${integration.id}"]`);
    expect(await listed.locator('.badge-heartbeat-up').textContent()).toBe('up');
  }, 120_000);

  it('ran without a page error', () => {
    // The only console error allowed is the deliberate 422 of the refused interval.
    expect(h.problems.filter((p) => !/status of 422 /.test(p))).toEqual([]);
  });
});
