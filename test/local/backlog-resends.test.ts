// The sweeper's re-sends behind a backed-up queue (lib/queues/backlog.ts): a pending inbound request
// or an unrouted alert whose message still waits in its queue is left to it, without a write, until
// it has waited BACKLOG_WAIT_MS past its grace period; once the queue is empty (its message was
// lost), it goes at once; one whose send failed goes even behind the backlog. The queues are held
// still (no pollers), so the backlog is there for as long as the test says.
import { PurgeQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sweepUnroutedAlerts, UNROUTED_GRACE_MS } from '../../lib/alerts/sweep-unrouted';
import { SWEEP_GRACE_MS } from '../../lib/integrations/ingest/incoming-log';
import { sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { BACKLOG_WAIT_MS } from '../../lib/queues/backlog';
import { adminAccountUser, createIntegration } from '../integrations/support';
import { drainQueue } from '../support/queues';
import { startService, type TestService } from '../support/runtime';

const down = vi.hoisted(() => ({ ingest: false, routing: false }));

// The faults: a queue refuses sends while its flag is set.
vi.mock('../../lib/integrations/ingest/ingest-queue', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/integrations/ingest/ingest-queue')>();
  return {
    ...original,
    sendToIngestQueue: async (...args: Parameters<typeof original.sendToIngestQueue>) => {
      if (down.ingest) throw new Error('simulated ingest queue outage');
      return original.sendToIngestQueue(...args);
    },
  };
});
vi.mock('../../lib/alerts/routing-queue', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/alerts/routing-queue')>();
  return {
    ...original,
    sendToRouting: async (...args: Parameters<typeof original.sendToRouting>) => {
      if (down.routing) throw new Error('simulated routing queue outage');
      return original.sendToRouting(...args);
    },
  };
});

/** Runs `run` while `queue` refuses sends. */
async function whileDown(queue: keyof typeof down, run: () => Promise<void>): Promise<void> {
  down[queue] = true;
  try {
    await run();
  } finally {
    down[queue] = false;
  }
}

let service: TestService;
let sqs: SQSClient;

beforeAll(async () => {
  service = await startService({ pollerConcurrency: 0 });
  sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: 'us-east-1' });
});
afterAll(async () => {
  sqs.destroy();
  await service.stop();
});

const purge = async (queue: 'ingest' | 'routing') => {
  await sqs.send(new PurgeQueueCommand({ QueueUrl: service.runtime.queues[queue].url }));
  expect((await drainQueue(service, queue)).handled).toBe(0);
};

describe('pending inbound requests behind a backed-up ingest queue', () => {
  it('are left to their message until the backlog wait, go at once once the queue is empty, and go at once when their send failed', async () => {
    const integration = await createIntegration(service.admin, {});
    const post = async (id: string) => {
      const res = await service.anonymous.post(`/integration/${integration.prefix_id}`, { id, title: `Webhook ${id}` });
      expect(res.status, res.text).toBe(202);
    };
    await post('waiting-1');
    const start = Date.now();
    // Past its grace period, its message still in line: not re-sent, not even claimed.
    expect(await sweepPendingLogs(start + SWEEP_GRACE_MS + 1_000)).toMatchObject({ due: 0, resent: 0 });
    // Waited the whole backlog wait past its grace: re-sent anyway (once: it is claimed, backing off).
    const late = start + SWEEP_GRACE_MS + BACKLOG_WAIT_MS + 1_000;
    expect(await sweepPendingLogs(late)).toMatchObject({ due: 1, resent: 1 });
    expect(await sweepPendingLogs(late)).toMatchObject({ due: 0, resent: 0 });
    await purge('ingest');

    // A request whose send failed is not in the queue: re-sent at once although the queue is backed up.
    await post('waiting-2');
    await whileDown('ingest', () => post('unsent-1'));
    expect(await sweepPendingLogs(Date.now())).toMatchObject({ due: 1, resent: 1 });
    await purge('ingest');

    // The queue empty: a message lost is re-sent as soon as its grace period is over (so are the two
    // purged above, waiting-2's and unsent-1's re-sent one, whose due times have come too).
    await post('lost-1');
    await purge('ingest');
    expect(await sweepPendingLogs(Date.now() + SWEEP_GRACE_MS + 1_000)).toMatchObject({ due: 3, resent: 3 });
    expect((await drainQueue(service, 'ingest')).handled).toBe(3);
  });
});

describe('unrouted alerts behind a backed-up routing queue', () => {
  it('are left to their message until the backlog wait, go once the queue is empty, and go after the grace when their send failed', async () => {
    // The alerts the webhooks above made are routed first: only this test's are in the index.
    await drainQueue(service, 'routing');
    const destination = await adminAccountUser(service.admin);
    const create = async (title: string) => {
      const res = await service.admin.post('/api/v4/alerts', { title, urgency: 'high', destination_account_user_ids: [destination.id] });
      expect(res.status, res.text).toBe(201);
    };
    await create('Waiting in line');
    const start = Date.now();
    // Past its grace period, its message still in line: not re-driven, not even claimed.
    expect(await sweepUnroutedAlerts(start + UNROUTED_GRACE_MS + 1_000)).toMatchObject({ due: 0, resent: 0 });
    // Waited the whole backlog wait past its grace: re-driven anyway (once: it is claimed, backing off).
    const late = start + UNROUTED_GRACE_MS + BACKLOG_WAIT_MS + 1_000;
    expect(await sweepUnroutedAlerts(late)).toMatchObject({ due: 1, resent: 1 });
    expect(await sweepUnroutedAlerts(late)).toMatchObject({ due: 0, resent: 0 });
    expect(await drainQueue(service, 'routing')).toMatchObject({ handled: 2, failed: [] });

    // An alert whose routing message was not sent: after its grace period, re-driven behind the backlog.
    await create('Waiting in line too');
    await whileDown('routing', () => create('Never sent'));
    expect(await sweepUnroutedAlerts(Date.now())).toMatchObject({ due: 0, resent: 0 });
    expect(await sweepUnroutedAlerts(Date.now() + UNROUTED_GRACE_MS + 1_000)).toMatchObject({ due: 1, resent: 1 });
    expect(await drainQueue(service, 'routing')).toMatchObject({ handled: 2, failed: [] });

    // The queue empty: a message lost is re-driven as soon as its grace period is over.
    await create('Lost message');
    await purge('routing');
    expect(await sweepUnroutedAlerts(Date.now() + UNROUTED_GRACE_MS + 1_000)).toMatchObject({ due: 1, resent: 1 });
    expect((await drainQueue(service, 'routing')).handled).toBe(1);
  });
});
