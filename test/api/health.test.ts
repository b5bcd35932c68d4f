// GET /health reports, beside `ok`, the depth of each queue and of its dead-letter queue, the oldest
// webhook accepted but not processed (the pending index) and the oldest overdue step (the due index).
// @moto: the queues' depth attributes, the pending and due indexes.
// @module-tag moto
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../infra/functions';
import { adminAccountUser, createIntegration } from '../integrations/support';
import { testClock } from '../support/dependencies';
import { drainQueue } from '../support/queues';
import { useService, type TestService } from '../support/runtime';

let service: TestService;

// No workers: what is queued stays queued, so the depths are what the test put there.
useService(
  async (started) => {
    service = started;
  },
  { pollerConcurrency: 0 },
);

describe('the health check', () => {
  it('reports every queue of the catalogue, with its waiting messages and its dead letters', async () => {
    const before = await service.anonymous.get('/health');
    expect(before.status).toBe(200);
    expect(before.body.status).toBe('ok');
    expect(Object.keys(before.body.queues).sort()).toEqual(Object.keys(QUEUES).sort());
    for (const depth of Object.values(before.body.queues)) expect(depth).toEqual({ waiting: 0, in_flight: 0, dead_letters: 0 });

    const destination = await adminAccountUser(service.admin);
    expect(
      (await service.admin.post('/api/v4/alerts', { title: 'Queued', urgency: 'low', destination_account_user_ids: [destination.id] }))
        .status,
    ).toBe(201);
    const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: 'us-east-1' });
    await sqs.send(new SendMessageCommand({ QueueUrl: service.runtime.queues.ingest.dlqUrl, MessageBody: '{"dead":true}' }));
    sqs.destroy();
    // The depths are remembered for 5 seconds (one GetQueueAttributes per queue, not per health check).
    const remembered = await service.anonymous.get('/health');
    expect(remembered.body.queues.ingest).toEqual({ waiting: 0, in_flight: 0, dead_letters: 0 });
    testClock.advance(5_000);
    const after = await service.anonymous.get('/health');
    expect(after.body.queues.routing).toEqual({ waiting: 1, in_flight: 0, dead_letters: 0 });
    expect(after.body.queues.ingest).toEqual({ waiting: 0, in_flight: 0, dead_letters: 1 });
  });

  it('reports the oldest webhook not yet processed and the oldest overdue step, read from their indexes', async () => {
    testClock.advance(10_000); // past what the test before read (remembered 5 s)
    const idle = await service.anonymous.get('/health');
    expect(idle.body).toMatchObject({ status: 'ok', oldest_pending_webhook: null, oldest_overdue_step: null });

    // No ingest worker runs here: the webhook stays pending.
    const integration = await createIntegration(service.admin, { type: 'webhook' });
    const accepted = testClock.freeze();
    expect((await service.anonymous.post(`/integration/${integration.prefix_id}`, { title: 'Disk full' })).status).toBe(202);
    // A page to one person: routing starts the escalation, whose step is due 5 minutes on (its delayed message is never received here).
    const person = await adminAccountUser(service.admin);
    expect(
      (await service.admin.post('/api/v4/alerts', { title: 'Overdue', urgency: 'high', destination_account_user_ids: [person.id] })).status,
    ).toBe(201);
    expect((await drainQueue(service, 'routing')).failed).toEqual([]);

    testClock.advance(5_000);
    const fresh = await service.anonymous.get('/health');
    expect(fresh.body.oldest_overdue_step).toBeNull();
    expect(fresh.body.oldest_pending_webhook.age_seconds).toBeGreaterThanOrEqual(5);
    expect(Date.parse(fresh.body.oldest_pending_webhook.received_at)).toBeLessThanOrEqual(accepted);

    testClock.advance(6 * 60_000);
    const late = await service.anonymous.get('/health');
    expect(late.body.status).toBe('ok');
    expect(late.body.oldest_pending_webhook.age_seconds).toBeGreaterThanOrEqual(365);
    expect(late.body.oldest_overdue_step).toMatchObject({ kind: 'escalation' });
    // Due 5 minutes after the page, which came moments after the webhook.
    expect(late.body.oldest_overdue_step.overdue_seconds).toBeGreaterThanOrEqual(60);
    expect(late.body.oldest_overdue_step.overdue_seconds).toBeLessThanOrEqual(65);

    // Processed, the webhook leaves the pending index.
    expect((await drainQueue(service, 'ingest')).failed).toEqual([]);
    testClock.advance(5_000);
    expect((await service.anonymous.get('/health')).body.oldest_pending_webhook).toBeNull();
  });
});
