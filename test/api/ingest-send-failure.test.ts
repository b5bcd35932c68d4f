// A webhook stored but not queued (the send failed after the log write) is not left to the grace
// period: it is due for the sweeper at once, and the next sweep turns it into its alert.
import { GetCommand } from '../../lib/store/commands';
import { expect, it, vi } from 'vitest';
import { typeOf } from '../../lib/entities';
import { db, tableName } from '../../lib/store/client';
import { entityKey } from '../../lib/store/items';
import { useService, type TestService } from '../support/runtime';
import { createIntegration, settledAlerts } from '../integrations/support';

const queue = vi.hoisted(() => ({ down: false }));

// The fault: the ingest queue refuses sends while `queue.down`.
vi.mock('../../lib/integrations/ingest/ingest-queue', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/integrations/ingest/ingest-queue')>();
  return {
    ...original,
    sendToIngestQueue: async (...args: Parameters<typeof original.sendToIngestQueue>) => {
      if (queue.down) throw new Error('simulated queue outage');
      return original.sendToIngestQueue(...args);
    },
  };
});

let service: TestService;
useService(async (started) => {
  service = started;
});

it('a webhook whose queue send failed is due at once, and the next sweep makes its alert', async () => {
  const integration = await createIntegration(service.admin, {});
  queue.down = true;
  const res = await service.anonymous.post(`/integration/${integration.prefix_id}`, { id: 'unqueued-1', title: 'Queue was down' });
  queue.down = false;
  expect(res.status).toBe(202);

  const item = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: entityKey(integration.account_id as string, typeOf('log'), res.body.log_id.replace(/^log_/, '')),
    }),
  );
  expect(item.Item?.status).toBe('pending');
  // Due now, not 30 s after it was received.
  expect(Date.parse(String(item.Item?.gsi2sk).split('#')[0])).toBeLessThanOrEqual(Date.now());

  await service.runtime.runScheduled('sweeper');
  const [alert] = await settledAlerts(service.admin, 'unqueued-1');
  expect(alert).toMatchObject({ title: 'Queue was down', dedup_count: 1 });
});
