// Routing decided at create (issue 21, write budget; lib/alerts/direct-routing.ts): an alert whose
// destinations are teams and people only is stored with its routing decision, so the routing worker
// writes no second version of it; it still writes the `routed` entry and starts the paging. An alert
// that names a router is routed as before: the worker decides and saves. Run without pollers, so each
// test says when routing runs.
import { PurgeQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whoAmI } from '../alerts/support';
import { insertNewAlert } from '../../lib/alerts/create-alert';
import { newId } from '../../lib/ids';
import { person, team } from '../escalation/support';
import { dynamoCallsDuring, itemKeyOf } from '../support/aws-calls';
import { drainQueue } from '../support/queues';
import { startService, type TestService } from '../support/runtime';

let service: TestService;
let accountId: string;

beforeAll(async () => {
  service = await startService({ pollerConcurrency: 0 });
  accountId = (await whoAmI(service.admin)).accountId;
});
afterAll(() => service.stop());

const actionsOf = async (alertId: string) =>
  ((await service.admin.get(`/incident/${alertId}/logs`)).body.data as Array<{ data: { action: string } }>).map((log) => log.data.action);

const pagedPeople = async (alertId: string) =>
  ((await service.admin.get(`/api/v4/notifications?alert_id=${alertId}&limit=100`)).body.data as Array<{ account_user_id: string }>).map(
    (n) => n.account_user_id,
  );

type Call = Awaited<ReturnType<typeof dynamoCallsDuring>>['calls'][number];

/** The keys of the items a call puts (PutItem, or the puts of a BatchWriteItem). */
function putKeys(call: Call): { pk: string; sk: string }[] {
  if (call.operation === 'PutItem') return [itemKeyOf(call)!];
  if (call.operation !== 'BatchWriteItem') return [];
  const requests = Object.values(
    call.input.RequestItems as Record<string, Array<{ PutRequest?: { Item: Record<string, { S?: string }> } }>>,
  );
  return requests.flat().flatMap((r) => (r.PutRequest ? [{ pk: r.PutRequest.Item.pk.S!, sk: r.PutRequest.Item.sk.S! }] : []));
}

/** The routing queue drained: the writes it made to the alert item itself, and the timeline items it put. */
async function routeAndWatchTheAlert(alertId: string) {
  const { result, calls } = await dynamoCallsDuring(() => drainQueue(service, 'routing'));
  expect(result.failed).toEqual([]);
  const alertKey = (call: Call) => {
    const key = itemKeyOf(call);
    return key?.pk === `A#${accountId}#ALERT` && key.sk === alertId;
  };
  return {
    alertWrites: calls.filter((call) => ['PutItem', 'UpdateItem', 'DeleteItem'].includes(call.operation) && alertKey(call)),
    logsPut: calls.flatMap(putKeys).filter((key) => key.pk === `A#${accountId}#LOG`).length,
  };
}

describe('routing decided at create', () => {
  it('an alert straight to a team is stored assigned; routing writes no version of it, and pages', async () => {
    const a = await person(service.admin);
    const t = await team(service.admin, { layers: [[a.id]], timeouts: [60] });
    const created = await service.admin.post('/api/v4/alerts', {
      title: 'Straight to the team',
      urgency: 'high',
      destination_team_ids: [t.id],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body.status).toBe('open');
    // Assigned and routed before the routing worker ran (the earlier interface names the team, the
    // timeline says so), nobody paged yet.
    const before = (await service.admin.get(`/alert/${id}`)).body;
    expect(before.d_team_id).toBe(`tem_${t.id}`);
    expect(await actionsOf(id)).toEqual(['created', 'routed']);
    expect(await pagedPeople(id)).toEqual([]);

    // The worker writes no version of the alert and no routing entry: only its step's `escalated`.
    expect(await routeAndWatchTheAlert(id)).toEqual({ alertWrites: [], logsPut: 1 });
    expect(await actionsOf(id)).toEqual(['created', 'routed', 'escalated']);
    expect(new Set(await pagedPeople(id))).toEqual(new Set([a.id]));
    const after = (await service.admin.get(`/api/v4/alerts/${id}`)).body;
    expect(after.updated_at).toBe(after.created_at);
    // The earlier interface's create answers it assigned.
    const earlier = await service.admin.post('/alert', {
      title: 'Earlier, to the team',
      urgency: 'high',
      destination_ids: [`tem_${t.id}`],
    });
    expect(earlier.status, earlier.text).toBe(201);
    expect(earlier.body.d_team_id).toBe(`tem_${t.id}`);
    await drainQueue(service, 'routing');
  });

  it('a second routing message of a decided alert (one it sent, or the sweeper) writes no second entry and pages nobody again', async () => {
    const a = await person(service.admin);
    const t = await team(service.admin, { layers: [[a.id]], timeouts: [60] });
    const id = (await service.admin.post('/api/v4/alerts', { title: 'Twice', urgency: 'high', destination_team_ids: [t.id] })).body
      .id as string;
    await drainQueue(service, 'routing');
    const pages = (await pagedPeople(id)).length;
    expect(pages).toBeGreaterThan(0);
    const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
    try {
      for (const body of [
        { account_id: accountId, alert_id: id, decided: true },
        { account_id: accountId, alert_id: id },
      ]) {
        await sqs.send(new SendMessageCommand({ QueueUrl: service.runtime.queues.routing.url, MessageBody: JSON.stringify(body) }));
        expect((await routeAndWatchTheAlert(id)).alertWrites).toEqual([]);
      }
    } finally {
      sqs.destroy();
    }
    expect(await actionsOf(id)).toEqual(['created', 'routed', 'escalated']);
    expect(await pagedPeople(id)).toHaveLength(pages);
  });

  it('a create retried with its id, whose first attempt stored the alert and lost its message, sends it to routing again', async () => {
    const a = await person(service.admin);
    const t = await team(service.admin, { layers: [[a.id]], timeouts: [60] });
    const id = newId();
    const actor = { type: 'Integration' as const, integrationId: newId() };
    const input = { title: 'Retried create', urgency: 'high' as const, destination_team_ids: [t.id] };
    expect((await insertNewAlert(accountId, input, actor, { id })).created).toBe(true);
    // The message is lost (a crash between the send and its delivery): the queue forgets it.
    const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
    try {
      await sqs.send(new PurgeQueueCommand({ QueueUrl: service.runtime.queues.routing.url }));
    } finally {
      sqs.destroy();
    }
    expect((await drainQueue(service, 'routing')).handled).toBe(0);
    // The retry finds the alert (decided, its routing never ran) and hands it to routing again.
    expect((await insertNewAlert(accountId, input, actor, { id })).created).toBe(false);
    expect((await drainQueue(service, 'routing')).handled).toBe(1);
    expect(await actionsOf(id)).toEqual(['created', 'routed', 'escalated']);
    expect(new Set(await pagedPeople(id))).toEqual(new Set([a.id]));
  });

  it('an alert through a router is routed as before: the worker decides and saves the decision', async () => {
    const a = await person(service.admin);
    const t = await team(service.admin, { layers: [[a.id]], timeouts: [60] });
    const router = await service.admin.post('/api/v4/routers', { name: 'To the team', rules: null, default_receiver_team_id: t.id });
    expect(router.status, router.text).toBe(201);
    const created = await service.admin.post('/api/v4/alerts', {
      title: 'Through a router',
      urgency: 'high',
      destination_router_ids: [router.body.id],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect((await service.admin.get(`/alert/${id}`)).body.d_team_id).toBeNull();

    const { alertWrites } = await routeAndWatchTheAlert(id);
    expect(alertWrites.map((call) => call.operation)).toEqual(['PutItem']);
    expect((await service.admin.get(`/alert/${id}`)).body.d_team_id).toBe(`tem_${t.id}`);
    expect(await actionsOf(id)).toEqual(['created', 'router', 'routed', 'escalated']);
    expect(new Set(await pagedPeople(id))).toEqual(new Set([a.id]));
  });
});
