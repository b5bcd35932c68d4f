// The real browser for the console's tests: Debian's Chromium driven by playwright-core (its own
// browser downloads cannot work here), one fresh profile per test file. When Chromium is absent the
// tests are skipped and say why; .ci/run installs it, so CI always runs them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { signToken } from '../../../lib/auth/jwt';
import type { Dependencies } from '../../../lib/dependencies';
import { buildConsole } from '../../../web/build';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startService, type TestService } from '../../support/runtime';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export const chromiumMissing: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `Chromium is not installed at ${CHROMIUM_PATH} (install it with \`apt-get install -y chromium\`, or set CHROMIUM_PATH); .ci/run installs it`;

if (chromiumMissing) console.warn(`\n[console browser tests SKIPPED] ${chromiumMissing}\n`);

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ConsoleHarness {
  service: TestService;
  context: BrowserContext;
  page: Page;
  /** Console messages and page errors seen so far (CSP violations show up here). */
  problems: string[];
  stop(): Promise<void>;
}

/** Builds the console, starts the real local service serving it, and opens Chromium on it. */
export async function startConsole(
  options: { timezoneId?: string; env?: Record<string, string>; dependencies?: Partial<Dependencies> } = {},
): Promise<ConsoleHarness> {
  const work = mkdtempSync(path.join(tmpdir(), 'console-test-'));
  const build = await buildConsole(path.join(work, 'dist'));
  const service = await startService({ consoleDir: build.outdir, env: options.env, dependencies: options.dependencies });
  let context: BrowserContext;
  try {
    // A persistent context is how Playwright takes a user data dir: a fresh one per file.
    context = await chromium.launchPersistentContext(path.join(work, 'profile'), {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      timezoneId: options.timezoneId,
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
  } catch (error) {
    await service.stop();
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return {
    service,
    context,
    page,
    problems,
    async stop() {
      await context.close().catch(() => undefined);
      await service.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Opens the console and signs in as the service's first admin, through the sign-in page. */
export async function signInAsAdmin(h: ConsoleHarness): Promise<void> {
  await h.page.goto(`${h.service.url}/`);
  await h.page.getByLabel('Email').fill(ADMIN_EMAIL);
  await h.page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await h.page.getByRole('button', { name: 'Sign in' }).click();
  await h.page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/**
 * The login token a member's sign-in would give (tests create members without a password), signed in
 * this process as the service signs it; a test puts it in the tab's session storage to act as them.
 */
export function sessionTokenOf(accountUser: { id: string; user_id: string; account_id: string }): Promise<string> {
  return signToken({ sub: accountUser.user_id, acc: accountUser.account_id, acu: accountUser.id, gen: 0 });
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page (injected through the DevTools protocol, which the page's CSP does not
 * govern) and returns its violations of impact serious or critical.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate<
    AxeViolation[]
  >(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')),
  })))`);
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
