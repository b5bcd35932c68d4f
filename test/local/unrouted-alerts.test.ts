// No alert may be forgotten (issue 9): an alert whose routing message is lost (the process died
// between the write and the send, or with the embedded queue holding the message) stays in the
// unrouted index and is routed after all: by the sweeper once the grace period is over, and at
// start-up of the local runtime (its start-up re-drive). Re-drives are idempotent with the routing worker.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PurgeQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepUnroutedAlerts, UNROUTED_GRACE_MS } from '../../lib/alerts/sweep-unrouted';
import { adminAccountUser } from '../integrations/support';
import { ApiClient } from '../support/api-client';
import { drainQueue } from '../support/queues';
import { settle } from '../support/quiescence';
import { startService, type TestService } from '../support/runtime';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/** The alert as the earlier interface shows it: d_user_id names whom it is assigned to (an alert straight
 * to a person is assigned by its create: lib/alerts/direct-routing.ts). */
const routedTo = async (client: ApiClient, id: string) => (await client.get(`/alert/${id}`)).body.d_user_id as string | null;
/** The entries of its timeline with this action (`routed`: the routing's; `escalated`: the paging the routing worker starts). */
const entries = async (client: ApiClient, id: string, action: string) =>
  ((await client.get(`/incident/${id}/logs`)).body.data as Array<{ data?: { action?: string } }>).filter(
    (log) => log.data?.action === action,
  ).length;

async function createAlert(client: ApiClient, title: string) {
  const destination = await adminAccountUser(client);
  const res = await client.post('/api/v4/alerts', { title, urgency: 'high', destination_account_user_ids: [destination.id] });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, userId: destination.user_id };
}

describe('alerts whose routing message was lost', () => {
  it('are sent to routing again once the grace period is over, routed once, and leave the index', async () => {
    const service: TestService = await startService({ pollerConcurrency: 0 });
    const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: 'us-east-1' });
    try {
      const alert = await createAlert(service.admin, 'Lost message');
      // The message is lost: the queue forgets it.
      await sqs.send(new PurgeQueueCommand({ QueueUrl: service.runtime.queues.routing.url }));
      expect((await drainQueue(service, 'routing')).handled).toBe(0);

      expect(await entries(service.admin, alert.id, 'escalated')).toBe(0);
      // Within the grace period the sweeper leaves it to its own message.
      expect(await sweepUnroutedAlerts(Date.now())).toMatchObject({ due: 0, resent: 0 });
      // After it, the alert goes to routing again, once: a second sweep finds it claimed (backing off).
      const later = Date.now() + UNROUTED_GRACE_MS + 1_000;
      expect(await sweepUnroutedAlerts(later)).toMatchObject({ due: 1, resent: 1 });
      expect(await sweepUnroutedAlerts(later)).toMatchObject({ due: 0, resent: 0 });
      const routing = await drainQueue(service, 'routing');
      expect(routing).toEqual({ handled: 1, failed: [] });
      expect(await routedTo(service.admin, alert.id)).toBe(`usr_${alert.userId}`);
      expect(await entries(service.admin, alert.id, 'routed')).toBe(1);
      expect(await entries(service.admin, alert.id, 'escalated')).toBe(1);
      // Routed: it left the index, even once its backed-off due time comes.
      expect(await sweepUnroutedAlerts(Date.now() + 24 * 3_600_000)).toMatchObject({ due: 0 });
    } finally {
      sqs.destroy();
      await service.stop();
    }
  });

  it('an alert routed by its own message is never sent again', async () => {
    const service = await startService({ pollerConcurrency: 0 });
    try {
      const alert = await createAlert(service.admin, 'Routed in time');
      expect(await drainQueue(service, 'routing')).toEqual({ handled: 1, failed: [] });
      expect(await routedTo(service.admin, alert.id)).toBe(`usr_${alert.userId}`);
      expect(await sweepUnroutedAlerts(Date.now() + 24 * 3_600_000)).toMatchObject({ due: 0, resent: 0 });
      expect(await entries(service.admin, alert.id, 'routed')).toBe(1);
    } finally {
      await service.stop();
    }
  });
});

describe.skipIf(external)('a process killed with alerts it never routed', () => {
  it('routes them at start-up, before any sweep or grace period', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oncall-unrouted-'));
    dirs.push(dataDir);
    const apiKey = 'u'.repeat(40);
    // The first process takes alerts but never routes them, and is killed: no shutdown, and its
    // embedded queue with the routing messages is gone.
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/local/runtime-child.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, TABLE_NAME: 'oncall', BOOTSTRAP_API_KEY: apiKey, POLLERS: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const ready = /READY (\S+)/.exec(out);
        if (ready) resolve(ready[1]);
      });
      child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${out}`)));
    });
    const first = new ApiClient(url, { authorization: `Bearer ${apiKey}` });
    const alerts = await Promise.all(Array.from({ length: 5 }, (_, i) => createAlert(first, `Stranded ${i}`)));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    const second = await startService({ dataDir, tableName: 'oncall', bootstrap: { apiKey } });
    try {
      // "At start-up", not by the sweeper's grace period: the service's clock has not moved and the
      // sweeper has not run (tests never run it on a timer), so once the start-up re-drive is done
      // (startService waits for it) and the runtime at rest, every alert is routed or it never will be.
      await settle(second);
      for (const alert of alerts) expect(await routedTo(second.admin, alert.id), `alert ${alert.id} routed`).toEqual(expect.any(String));
    } finally {
      await second.stop();
    }
  }, 60_000);
});
