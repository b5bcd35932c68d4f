// `npm run screenshots`: the console's main pages in Chromium against a demo account on the local
// runtime (in memory), saved as docs/screenshots/<page>.png for the README. Slack is the stand-in
// of the tests (test/support/slack-stand-in.ts), so the Slack page shows a connected workspace.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startRuntime } from '../../../infra/local/runtime';
import type { OutgoingMessage } from '../../../lib/notify/providers/provider';
import { SlackStandIn, slackAppEnv } from '../../support/slack-stand-in';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing } from '../support/browser';
import { buildConsole } from '../../../web/build';
import { apiClient, seedDemo } from './demo-account';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'screenshots');

async function main(): Promise<void> {
  if (chromiumMissing) throw new Error(chromiumMissing);
  const work = mkdtempSync(path.join(tmpdir(), 'console-shots-'));
  const build = await buildConsole(path.join(work, 'dist'));
  const password = 'demo password 1';
  const apiKey = 'd'.repeat(40);
  const outbox: OutgoingMessage[] = [];
  const slack = await SlackStandIn.start();
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'console-demo',
    bootstrap: { password, apiKey },
    consoleDir: build.outdir,
    dependencies: { memoryOutbox: outbox },
    env: { OUTBOX: 'memory', LOG_LEVEL: 'error', ...slackAppEnv(slack) },
  });
  const context = await chromium.launchPersistentContext(path.join(work, 'profile'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Europe/London',
    locale: 'en-GB',
  });
  try {
    const demo = await seedDemo(runtime.url, apiClient(runtime.url, apiKey), runtime.created!.admin.id);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the webhook becomes an alert
    mkdirSync(OUT, { recursive: true });
    const page = context.pages()[0] ?? (await context.newPage());
    const shot = async (name: string) => {
      await page
        .locator('.loading')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      await page.evaluate('document.activeElement && document.activeElement.blur()');
      await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
      console.log(`docs/screenshots/${name}.png`);
    };
    const open = async (hash: string) => {
      await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForTimeout(400);
    };

    await page.goto(`${runtime.url}/`);
    await page.getByLabel('Email').fill('admin@example.com');
    await shot('sign-in');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tbody tr').first().waitFor();
    await shot('alerts');
    await open(`#/alerts/${demo.alertIds[0]}`);
    await shot('alert');
    await open('#/on-call');
    await page.locator('td.oncall-now').first().waitFor();
    await shot('on-call');
    await open(`#/schedules/${demo.scheduleId}`);
    await page.locator('.week').waitFor();
    await shot('schedule');
    await open(`#/integrations/${demo.integrationPrefixId}`);
    await page.locator('tbody tr').first().waitFor();
    await shot('integration');
    await open('#/notifications');
    await page.locator('tbody tr').first().waitFor();
    await shot('notifications');
    await open('#/routers');
    await page.locator('tbody tr').first().waitFor();
    await shot('routers');
    await open(`#/routers/${demo.routerId}`);
    await page.getByLabel('Alert title').fill('Payments API error rate above 5%');
    await page.getByLabel('Alert urgency').selectOption('critical');
    await page.getByRole('button', { name: 'Run dry run' }).click();
    await page.locator('.dry-run-result .outcome').waitFor();
    await shot('router');
    await page
      .getByLabel('Rules (YAML)')
      .fill('rules:\n  - match:\n      alert.urgency: critical\n    actions:\n      - type: page_everyone\n');
    await page.getByRole('button', { name: 'Save router' }).click();
    await page.locator('.yaml-line-error').first().waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('.yaml-field').scrollIntoViewIfNeeded();
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.screenshot({ path: path.join(OUT, 'router-yaml-error.png') });
    console.log('docs/screenshots/router-yaml-error.png');
    await open('#/teams');
    await shot('teams');
    await open('#/users');
    await shot('users');
    await open('#/profile');
    await shot('profile');
    const workspace = slack.addWorkspace('Acme Ops');
    const connected = await apiClient(runtime.url, apiKey).request('PUT', '/api/v4/slack', {
      bot_token: workspace.botToken,
      signing_secret: workspace.signingSecret,
    });
    if (connected.status !== 200) throw new Error(`PUT /api/v4/slack: ${connected.status}`);
    await open('#/slack');
    await page.getByRole('region', { name: 'Connected workspace' }).waitFor();
    await shot('slack');

    // Password self-service: the form behind "Forgot password?", and the page its e-mailed link opens.
    await open('#/forgot-password');
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'If the address belongs' }).waitFor();
    await shot('forgot-password');
    const link = /http\S+\/#\/reset-password\/[\w-]+/.exec(outbox.find((m) => m.template === 'password_reset')!.message)![0];
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.locator('.field-error').waitFor();
    await shot('reset-password');
  } finally {
    await context.close();
    await runtime.stop();
    await slack.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
