// A worker that throws for one record of a batch: the others still land, the bad one is retried,
// reaches the dead-letter queue after maxReceiveCount, and its log is marked failed with the reason.
import { ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, expect, it, vi } from 'vitest';
import { prefixId } from '../../lib/ids';
import { getIncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { useService, type TestService } from '../support/runtime';
import { alertsWithThirdpartyId, createIntegration, eventually, settledAlerts, storePendingLog } from '../integrations/support';

// The fault: creating an alert titled "explode" throws, every time (the worker dies on that record).
vi.mock('../../lib/alerts/create-alert', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/alerts/create-alert')>();
  return {
    ...original,
    insertNewAlert: async (...args: Parameters<typeof original.insertNewAlert>) => {
      if (args[1].title === 'explode') throw new Error('simulated worker crash');
      return original.insertNewAlert(...args);
    },
  };
});

let service: TestService;
let sqs: SQSClient;

useService(async (started) => {
  service = started;
  sqs = new SQSClient({
    endpoint: service.runtime.emulators.sqsEndpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    useQueueUrlAsEndpoint: false,
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! },
  });
});
afterAll(async () => {
  sqs?.destroy();
});

it('a record that throws does not hold back its batch, and ends in the DLQ with its log marked failed', async () => {
  const integration = await createIntegration(service.admin, {});
  const accountId = integration.account_id as string;
  const suffix = Math.random().toString(36).slice(2, 8);
  const bodies = [
    { id: `good-1-${suffix}`, title: 'fine' },
    { id: `bad-${suffix}`, title: 'explode' },
    { id: `good-2-${suffix}`, title: 'fine too' },
  ];
  const logs = await Promise.all(bodies.map((body) => storePendingLog(integration, body, { dueAt: Date.now() + 3_600_000 })));
  // One SendMessageBatch, so the poller receives the three together.
  await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: service.runtime.queues.ingest.url,
      Entries: logs.map((log, i) => ({ Id: String(i), MessageBody: JSON.stringify({ account_id: accountId, log_id: log.id }) })),
    }),
  );

  await settledAlerts(service.admin, `good-1-${suffix}`);
  await settledAlerts(service.admin, `good-2-${suffix}`);
  for (const good of [logs[0], logs[2]]) {
    await eventually(
      async () => ((await getIncomingLog(accountId, good.id))?.status === 'processed' ? true : undefined),
      10_000,
      'good logs processed',
    );
  }

  // Four receives, 2 s apart (the tests' visibility timeout), then the dead-letter queue.
  const failed = await eventually(
    async () => {
      const log = await getIncomingLog(accountId, logs[1].id);
      return log?.status === 'failed' ? log : undefined;
    },
    25_000,
    'the bad log to be marked failed',
  );
  expect(failed.reason).toMatch(/processing failed 4 times: simulated worker crash/);
  expect(failed.data.result?.failure).toBe('exhausted');
  expect(await alertsWithThirdpartyId(service.admin, `bad-${suffix}`)).toHaveLength(0);

  const dead = await eventually(
    async () => {
      const out = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: service.runtime.queues.ingest.dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      const bodiesSeen = (out.Messages ?? []).map((m) => JSON.parse(m.Body!));
      return bodiesSeen.find((b) => b.log_id === logs[1].id);
    },
    15_000,
    'the bad message in the DLQ',
  );
  expect(dead).toEqual({ account_id: accountId, log_id: logs[1].id });
  expect(prefixId('log', logs[1].id)).toMatch(/^log_/);
}, 60_000);
