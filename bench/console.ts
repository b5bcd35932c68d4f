// Web console benchmark (issue 13), Chromium against the local runtime:
// (a) first load: bytes of the page, script and style sheet as sent (gzip) and unpacked;
// (b) time from navigation to the alerts list being visible, in an account of 10 000 alerts,
//     with an empty browser cache (cold) and a warm one, alternating with an account of 10 alerts
//     so the ratio compares like with like on a shared machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { startRuntime } from '../infra/local/runtime';
import type { AlertRecord } from '../lib/alerts/records';
import { importAlerts } from '../lib/alerts/bulk-store';
import { alertDefaults } from '../lib/alerts/store';
import { newId } from '../lib/ids';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing } from '../test/web/support/browser';
import { buildConsole } from '../web/build';
import { median, pool, round } from './support';

const STATUSES = ['open', 'acknowledged', 'resolved', 'resolved', 'dropped'] as const;

async function seedAlerts(accountId: string, accountUserId: string, count: number): Promise<void> {
  const chunk = 1_000;
  await pool(Math.ceil(count / chunk), 4, async (c) => {
    const now = new Date().toISOString();
    const records: AlertRecord[] = Array.from({ length: Math.min(chunk, count - c * chunk) }, (_, i) => {
      const n = c * chunk + i + 1;
      return {
        ...alertDefaults(),
        id: newId(),
        account_id: accountId,
        tiny_id: n,
        version: 1,
        title: `Seeded alert ${n}`,
        urgency: n % 4 === 0 ? 'critical' : 'high',
        status: STATUSES[n % STATUSES.length],
        destination_account_user_ids: [accountUserId],
        source_type: 'AccountUser',
        source_id: accountUserId,
        routed_at: now,
        created_at: now,
        updated_at: now,
      };
    });
    await importAlerts(accountId, records);
  });
}

async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/public/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

interface Load {
  ms: number;
  consoleBytes: number;
}

/** One load of the console, signed in (the tab's session), until the alerts table shows rows. */
async function loadOnce(context: BrowserContext, url: string, token: string, cold: boolean): Promise<Load> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (cold) await cdp.send('Network.clearBrowserCache');
    let consoleBytes = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number; requestId: string }) => {
      if (consoleRequests.has(event.requestId)) consoleBytes += event.encodedDataLength;
    });
    const consoleRequests = new Set<string>();
    cdp.on('Network.requestWillBeSent', (event: { requestId: string; request: { url: string } }) => {
      const { pathname } = new URL(event.request.url);
      if (pathname === '/' || pathname.startsWith('/assets/')) consoleRequests.add(event.requestId);
    });
    // The tab already has its session, as after a sign-in: sessionStorage is per tab.
    await page.addInitScript(`sessionStorage.setItem('oncall.session', ${JSON.stringify(token)})`);
    await page.goto(`${url}/#/alerts`, { waitUntil: 'commit' });
    await page.locator('tbody tr').first().waitFor({ state: 'visible', timeout: 30_000 });
    const ms = await page.evaluate<number>('performance.now()');
    return { ms, consoleBytes };
  } finally {
    await page.close();
  }
}

export async function benchConsole(): Promise<Record<string, number | string>> {
  if (chromiumMissing) return { skipped: chromiumMissing };
  const work = mkdtempSync(path.join(tmpdir(), 'bench-console-'));
  const build = await buildConsole(path.join(work, 'dist'));
  const password = 'bench console password';
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'bench-console',
    bootstrap: { password },
    consoleDir: build.outdir,
    env: { OUTBOX: 'memory', LOG_LEVEL: 'error', SIGNUP_ENABLED: 'true' },
  });
  let context: BrowserContext | undefined;
  try {
    const big = runtime.created!;
    await seedAlerts(big.account.id, big.admin.id, 10_000);
    const bigToken = await login(runtime.url, 'admin@example.com', password);

    const signup = await fetch(`${runtime.url}/public/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_name: 'Small', name: 'Small Admin', email: 'small@example.com', password }),
    });
    const small = (await signup.json()) as { token: string; account_id: string };
    const me = await fetch(`${runtime.url}/api/v4/account_users`, { headers: { authorization: `Bearer ${small.token}` } });
    const smallAdmin = ((await me.json()) as { data: { id: string }[] }).data[0].id;
    await seedAlerts(small.account_id, smallAdmin, 10);

    const total = await fetch(`${runtime.url}/alert?limit=1`, { headers: { authorization: `Bearer ${bigToken}` } });
    const count = ((await total.json()) as { total_count: number }).total_count;
    if (count !== 10_000) throw new Error(`expected 10 000 alerts, the account has ${count}`);

    // First load bytes: what the server sends with gzip, and unpacked.
    let gzipBytes = 0;
    let rawBytes = 0;
    for (const file of ['/', build.script, build.style]) {
      const zipped = await fetch(`${runtime.url}${file}`, { headers: { 'accept-encoding': 'gzip' } });
      gzipBytes += Number(zipped.headers.get('content-length'));
      rawBytes += Buffer.byteLength(await (await fetch(`${runtime.url}${file}`, { headers: { 'accept-encoding': 'identity' } })).text());
    }

    context = await chromium.launchPersistentContext(path.join(work, 'profile'), {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    // Warm-up: the server's handlers, the browser's process.
    for (let i = 0; i < 3; i++) {
      await loadOnce(context, runtime.url, bigToken, true);
      await loadOnce(context, runtime.url, small.token, true);
    }
    const ROUNDS = 15;
    const coldBig: number[] = [];
    const coldSmall: number[] = [];
    const warmBig: number[] = [];
    let transferred = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const cold = await loadOnce(context, runtime.url, bigToken, true);
      coldBig.push(cold.ms);
      transferred = cold.consoleBytes;
      coldSmall.push((await loadOnce(context, runtime.url, small.token, true)).ms);
      warmBig.push((await loadOnce(context, runtime.url, bigToken, false)).ms);
    }
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    return {
      'first load, gzip (bytes)': gzipBytes,
      'first load, unpacked (bytes)': rawBytes,
      'first load as Chromium received it (bytes, with headers)': transferred,
      'alerts visible, 10 000 alerts, cold cache, p50 (ms)': round(median(coldBig), 1),
      'alerts visible, 10 000 alerts, cold cache, max (ms)': round(sorted(coldBig).at(-1)!, 1),
      'alerts visible, 10 000 alerts, warm cache, p50 (ms)': round(median(warmBig), 1),
      'alerts visible, 10 alerts, cold cache, p50 (ms)': round(median(coldSmall), 1),
      '10 000 ÷ 10 alerts, cold p50': round(median(coldBig) / median(coldSmall), 2),
      'target: visible ≤ 1 000 ms; first load ≤ 150 KB gzip': median(coldBig) <= 1000 && gzipBytes <= 150 * 1024 ? 'met' : 'NOT met',
    };
  } finally {
    await context?.close().catch(() => undefined);
    await runtime.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
