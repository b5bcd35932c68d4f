// GET /health reports, beside `ok`, the depth of each queue and of its dead-letter queue.
// @moto: the queues' depth attributes.
// @module-tag moto
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../infra/functions';
import { adminAccountUser } from '../integrations/support';
import { testClock } from '../support/dependencies';
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
});
