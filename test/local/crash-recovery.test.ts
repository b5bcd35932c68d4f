// Crash recovery of the local runtime: webhooks accepted (stored, 202) whose queue messages died with
// the embedded queue become alerts within seconds of a restart on the same DATA_DIR, exactly once.
// The embedded store's persistence is what is tested, so this runs only on the embedded emulators.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { getIncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { redrivePendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { ApiClient } from '../support/api-client';
import { startService, type TestService } from '../support/runtime';
import { alertsWithThirdpartyId, createIntegration, storePendingLog } from '../integrations/support';
import { settle } from '../support/quiescence';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'oncall-crash-'));
  dirs.push(dir);
  return dir;
};

const STRANDED = 38;

/** Polls until every id has its alert (tagged crash); fails after `timeoutMs`. */
async function allAlerts(admin: ApiClient, ids: string[], timeoutMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const res = await admin.get(`/api/v4/alerts?limit=100&tag_list=crash`);
    const seen = new Set((res.body.data as Array<{ thirdparty_id: string }>).map((a) => a.thirdparty_id));
    if (ids.every((id) => seen.has(id))) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`only ${ids.filter((id) => seen.has(id)).length} of ${ids.length} alerts after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(external)('recovering stranded webhooks after a restart', () => {
  // Test services never run the sweeper on a timer (scheduleIntervalMs is an hour), so the alerts can
  // only come from the start-up re-drive: once it has settled and the pipeline is at rest, every
  // stranded webhook is one alert, with no wait for a sweep or its grace. How fast that is on a
  // quiet machine is a benchmark's business, not this test's.
  it(`${STRANDED} webhooks whose messages were lost become alerts by the start-up re-drive, once each`, async () => {
    const options = { dataDir: dataDir(), tableName: 'oncall', bootstrap: { apiKey: 'c'.repeat(40) } };
    // The first run takes webhooks but never consumes its queue (as if it died before its workers ran).
    let first: TestService | undefined = await startService({ ...options, pollerConcurrency: 0 });
    const integration = await createIntegration(first.admin, {});
    const ids = Array.from({ length: STRANDED }, (_, i) => `stranded-${i}`);
    const statuses = await Promise.all(
      ids.map((id) =>
        first!.anonymous
          .post(`/integration/${integration.prefix_id}`, { id, title: `Stranded ${id}`, tags: ['crash'] })
          .then((r) => r.status),
      ),
    );
    expect(statuses.every((s) => s === 202)).toBe(true);
    await first.stop(); // the embedded queue, and the 38 messages in it, are gone
    first = undefined;

    const second = await startService(options);
    try {
      await second.runtime.redrive;
      await settle(second);
      const res = await second.admin.get(`/api/v4/alerts?limit=100&tag_list=crash`);
      const seen = (res.body.data as Array<{ thirdparty_id: string }>).map((a) => a.thirdparty_id);
      expect(seen.sort()).toEqual([...ids].sort());
      for (const id of ids.slice(0, 5)) {
        const alerts = await alertsWithThirdpartyId(second.admin, id);
        expect(alerts).toHaveLength(1);
        expect(alerts[0].dedup_count).toBe(1);
      }
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('re-drives every request pending before the start, however far off its due time, and none received after', async () => {
    const service = await startService({ pollerConcurrency: 0 });
    try {
      const integration = await createIntegration(service.admin, {});
      const store = (id: string, receivedAt: number, dueAt: number) =>
        storePendingLog(integration, { id, title: id }, { receivedAt, dueAt });
      const startedAt = Date.now();
      // Before the start: one due now, one a re-send had pushed 16 grace periods away.
      const before = [
        await store('before-due', startedAt - 5_000, startedAt - 1),
        await store('before-backed-off', startedAt - 5_000, startedAt + 16 * 30_000),
      ];
      // After the start: its own queue message brings it; the re-drive leaves it alone.
      const after = await store('after-start', startedAt + 1_000, startedAt + 31_000);

      const result = await redrivePendingLogs(startedAt);
      expect(result).toEqual({ due: 2, resent: 2, failed: 0 });
      for (const log of before) expect((await getIncomingLog(log.account_id, log.id)) as unknown).toMatchObject({ resends: 1 });
      expect((await getIncomingLog(after.account_id, after.id)) as unknown).not.toHaveProperty('resends');
      // Another restart loses their messages again: they are re-driven again, one claim each.
      expect(await redrivePendingLogs(Date.now())).toEqual({ due: 2, resent: 2, failed: 0 });
      for (const log of before) expect((await getIncomingLog(log.account_id, log.id)) as unknown).toMatchObject({ resends: 2 });
    } finally {
      await service.stop();
    }
  });

  it('a process killed with SIGKILL right after answering 202 loses no webhook', async () => {
    const dir = dataDir();
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const apiKey = 'k'.repeat(40);
    const start = async (label: string): Promise<{ child: ChildProcess; url: string }> => {
      // node itself with tsx's loader (not the tsx wrapper), so SIGKILL reaches the server process.
      const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
        cwd: root,
        // A clean environment: the test process carries its own emulators' endpoints.
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: '0',
          DATA_DIR: dir,
          TABLE_NAME: 'oncall',
          BOOTSTRAP_API_KEY: apiKey,
          OUTBOX: 'memory',
          LOG_LEVEL: 'error',
          // No periodic sweep: only the start-up re-drive can turn the lost webhooks into alerts.
          SWEEP_INTERVAL_MS: '3600000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
        child.stderr.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.once('exit', (code) => reject(new Error(`server ${label} exited (${code}): ${out}`)));
      });
      return { child, url };
    };

    const first = await start('first');
    const admin = new ApiClient(first.url, { authorization: `Bearer ${apiKey}` });
    const integration = await createIntegration(admin, {});
    const anonymous = new ApiClient(first.url, {});
    const ids = Array.from({ length: 30 }, (_, i) => `killed-${i}`);
    await Promise.all(
      ids.map((id) => anonymous.post(`/integration/${integration.prefix_id}`, { id, title: `Killed ${id}`, tags: ['crash'] })),
    );
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await start('second');
    try {
      const admin2 = new ApiClient(second.url, { authorization: `Bearer ${apiKey}` });
      await allAlerts(admin2, ids, 60_000);
      const duplicates = (await Promise.all(ids.map((id) => alertsWithThirdpartyId(admin2, id)))).filter((a) => a.length !== 1);
      expect(duplicates).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
    }
  }, 90_000);
});
