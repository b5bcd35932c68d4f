// The Import page in a real browser (Debian's Chromium) against the real local service and the
// Opsgenie stand-in on loopback: the form (the key a password field, a dry run by default), a
// validation message beside its field, a dry run's plan and proof that writes nothing, the real run
// with the integrations' new addresses and their Copy buttons, a schedule whose on-call differs shown
// in red with its differences, and axe-core over the page with a report shown.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftingOpsgenieAccount, opsgenieAccount } from '../importers/opsgenie-fixture';
import { OpsgenieStandIn } from '../importers/opsgenie-stand-in';
import { chromiumMissing, seriousViolations, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

const KEY = 'genie-key-browser-5a4b3c2d1e';

let h: ConsoleHarness;
let page: Page;
let opsgenie: OpsgenieStandIn;
let drifting: OpsgenieStandIn;

const teamCount = async () => (await h.service.admin.get('/api/v4/teams?limit=100')).body.data.length as number;
const report = () => page.locator('section.import-report');

async function runImport(options: { key: string; url: string; dryRun: boolean; from?: string }) {
  await page.getByLabel('Source').selectOption('opsgenie');
  await page.getByLabel('API key').fill(options.key);
  await page.getByLabel('API URL').fill(options.url);
  await page.getByLabel(/^Compare the on-call from/).fill(options.from ?? '');
  await page.getByLabel(/^Dry run/).setChecked(options.dryRun);
  await page.getByRole('button', { name: 'Run' }).click();
}

describe.skipIf(chromiumMissing !== null)('the Import page', () => {
  beforeAll(async () => {
    opsgenie = new OpsgenieStandIn(opsgenieAccount(), KEY);
    drifting = new OpsgenieStandIn(driftingOpsgenieAccount(), KEY);
    await opsgenie.start();
    await drifting.start();
    // The stand-ins listen on loopback over plain http.
    h = await startConsole({ timezoneId: 'UTC', env: { ALLOW_PRIVATE_IMPORT_SOURCES: 'true' } });
    page = h.page;
    await signInAsAdmin(h);
  });

  afterAll(async () => {
    await h?.stop();
    await opsgenie?.stop();
    await drifting?.stop();
  });

  it('is in the navigation for admins, with the key a password field and a dry run by default', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    const key = page.getByLabel('API key');
    expect(await key.getAttribute('type')).toBe('password');
    expect(await key.getAttribute('autocomplete')).toBe('off');
    expect(await page.getByLabel(/^Dry run/).isChecked()).toBe(true);
    expect(await page.getByLabel('Source').locator('option').allTextContents()).toEqual(['Opsgenie', 'PagerDuty', 'Grafana OnCall']);
  });

  it('shows a refused key beside the API key field', async () => {
    await runImport({ key: 'not-the-key', url: opsgenie.url, dryRun: true });
    const key = page.getByLabel('API key');
    await expect.poll(() => key.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await key.getAttribute('aria-describedby').then((ids) => ids!.split(' ')[0])}`).textContent()).toMatch(
      /api_key was refused by Opsgenie \(401\)/,
    );
    expect(await report().count()).toBe(0);
  });

  it('runs a dry run: the plan by action and the proof of every schedule, nothing written', async () => {
    const before = await teamCount();
    await runImport({ key: KEY, url: opsgenie.url, dryRun: true });
    await report().getByRole('heading', { name: 'Plan from Opsgenie (dry run: nothing written)' }).waitFor({ timeout: 60_000 });
    expect(await report().locator('.import-counts li[data-action="create"] strong').textContent()).toMatch(/^\d+$/);
    const proofs = report().locator('.import-proofs > li');
    expect(await proofs.count()).toBe(3);
    expect(await report().locator('.proof-same').allTextContents()).toEqual(['on-call matches', 'on-call matches', 'on-call matches']);
    expect(await report().locator('.import-unsupported').textContent()).toContain('type Email has no equivalent here');
    expect(await report().locator('table.import-integrations tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^Prometheus prod.*GenieKey …a1b2.*Made by the real run$/),
      expect.stringMatching(/^Default API.*GenieKey …c3d4.*Made by the real run$/),
    ]);
    // The key is not kept on the page once the run has answered.
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await teamCount()).toBe(before);
  });

  it('imports for real, with each integration’s new address and a Copy button', async () => {
    const before = await teamCount();
    await runImport({ key: KEY, url: opsgenie.url, dryRun: false });
    await report().getByRole('heading', { name: 'Imported from Opsgenie' }).waitFor({ timeout: 60_000 });
    expect(await report().getByRole('status').first().textContent()).toMatch(/on-call matches Opsgenie/);
    expect(await teamCount()).toBe(before + 3);
    const prometheus = report().locator('table.import-integrations tbody tr', { hasText: 'Prometheus prod' });
    expect(await prometheus.locator('code').nth(1).textContent()).toMatch(
      new RegExp(`^${h.service.url}/v2/alerts with GenieKey the same key \\(or ${h.service.url}/integration/int_\\w+\\)$`),
    );
    await prometheus.getByRole('button', { name: 'Copy' }).click();
    await prometheus.getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${h.service.url}/v2/alerts`);

    // A second run changes nothing: every entry is kept.
    await runImport({ key: KEY, url: opsgenie.url, dryRun: false });
    await expect
      .poll(() => report().locator('.import-counts li').allTextContents(), { timeout: 60_000 })
      .toEqual([expect.stringMatching(/^\d+ keep$/)]);
    expect(await teamCount()).toBe(before + 3);
  }, 120_000);

  it('shows a schedule whose on-call differs in red, with the differences', async () => {
    // Its 28 days cross Europe's change of clocks (29 March 2026), where the renderings part.
    await runImport({ key: KEY, url: drifting.url, dryRun: true, from: '2026-03-20T00:00' });
    const differs = report().locator('.import-proofs > li[data-schedule="Drifting"] .proof-differs');
    await differs.waitFor({ timeout: 60_000 });
    expect(await differs.textContent()).toMatch(/^on-call differs \(\d+\)$/);
    expect(await differs.evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).color)).toBe('rgb(138, 28, 18)');
    expect(await report().locator('.proof-differences li').first().textContent()).toMatch(/: here [^;]+; there /);
    expect(await report().getByRole('alert').textContent()).toMatch(/On-call differs/);
    expect(await report().locator('.import-proofs .hint').first().textContent()).toMatch(/2026-03-20 to 2026-04-17/);
  }, 90_000);

  it('has no serious or critical axe-core violation with a report shown', async () => {
    await report().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('ran without a page error or a Content-Security-Policy violation but the refused key', () => {
    expect(h.problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
  });
});
