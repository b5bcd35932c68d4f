// The alert core API the webhook pipeline builds on (insertNewAlert, the transitions,
// raiseDedupCount) and the routing step, called in process against the local runtime's store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/runtime';
import { settle } from '../support/quiescence';
import { whoAmI, type Me } from './support';
import { insertNewAlert, type NewAlertInput } from '../../lib/alerts/create-alert';
import { raiseDedupCount } from '../../lib/alerts/dedup-count';
import { acknowledgeAlert } from '../../lib/alert-transitions/acknowledge';
import { archiveAlert } from '../../lib/alert-transitions/archive';
import { resolveAlert } from '../../lib/alert-transitions/resolve';
import { importAlerts } from '../../lib/alerts/bulk-store';
import { getAlert, listAlertsByThirdpartyId as alertsByThirdpartyId } from '../../lib/alerts/store';
import { routeAlert } from '../../lib/alert-routing/route-alert';
import { decidedAtCreate } from '../../lib/alerts/direct-routing';
import { listLogsOfOwner as logsOfOwner } from '../../lib/logs/store';
import { readCounts } from '../../lib/store/counters';
import { newId } from '../../lib/ids';
import type { Actor, AlertRecord } from '../../lib/alerts/records';
import { alertToEarlier } from '../../lib/alerts/represent';
import { db, tableName } from '../../lib/store/client';
import { DeleteCommand, GetCommand, PutCommand } from '../../lib/store/commands';

let service: TestService;
let me: Me;
const integration: Actor = { type: 'Integration', integrationId: newId() };

beforeAll(async () => {
  service = await startService();
  me = await whoAmI(service.admin);
});
afterAll(async () => {
  await service?.stop();
});

const input = (extra: Partial<NewAlertInput> = {}): NewAlertInput => ({
  title: 'CPU high',
  urgency: 'critical',
  thirdparty_id: `tp-${newId()}`,
  destination_account_user_ids: [me.accountUserId],
  additional_data: [{ type: 'text', label: 'host', value: 'db-1' }],
  source_log_id: newId(),
  ...extra,
});

const actions = async (alert: AlertRecord) => (await logsOfOwner(me.accountId, `alt_${alert.id}`)).map((log) => log.data.action);

describe('insertNewAlert', () => {
  it('stores an open alert from an integration with its source and a created entry', async () => {
    const { alert, created } = await insertNewAlert(me.accountId, input(), integration);
    expect(created).toBe(true);
    expect(alert).toMatchObject({
      status: 'open',
      dedup_count: 1,
      source_type: 'Integration',
      source_id: integration.type === 'Integration' && integration.integrationId,
    });
    // Stored as returned (routing, in this process, may already have added its own fields and version).
    const { id, tiny_id, title, urgency, thirdparty_id, source_log_id, created_at, additional_data } = alert;
    expect(await getAlert(me.accountId, alert.id)).toMatchObject({
      id,
      tiny_id,
      title,
      urgency,
      thirdparty_id,
      source_log_id,
      created_at,
      additional_data,
      status: 'open',
      dedup_count: 1,
    });
    expect(await actions(alert)).toContain('created');
    expect(alertToEarlier(alert).source_id).toBe(`int_${(integration as { integrationId: string }).integrationId}`);
    expect(alertToEarlier(alert).s_log_id).toBe(`log_${alert.source_log_id}`);
  });

  it('is idempotent with a given id: the second call returns the same alert, created=false, nothing new', async () => {
    const id = newId();
    const before = await readCounts(me.accountId, 'ALERT');
    const [first, second] = await Promise.all([
      insertNewAlert(me.accountId, input(), integration, { id }),
      insertNewAlert(me.accountId, input(), integration, { id }),
    ]);
    const third = await insertNewAlert(me.accountId, input({ title: 'other' }), integration, { id });
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(third.created).toBe(false);
    expect(third.alert.id).toBe(id);
    expect(third.alert.title).toBe('CPU high');
    const after = await readCounts(me.accountId, 'ALERT');
    expect(after.total).toBe((before.total ?? 0) + 1);
    expect((await actions(third.alert)).filter((a) => a === 'created')).toHaveLength(1);
  });

  it('finds alerts by third-party id (the deduplication lookup)', async () => {
    const { alert } = await insertNewAlert(me.accountId, input({ thirdparty_id: 'group/key:with{odd}chars' }), integration);
    const found = await alertsByThirdpartyId(me.accountId, 'group/key:with{odd}chars');
    expect(found.map((a) => a.id)).toEqual([alert.id]);
    const long = 'x'.repeat(3000);
    const { alert: longOne } = await insertNewAlert(me.accountId, input({ thirdparty_id: long }), integration);
    expect((await alertsByThirdpartyId(me.accountId, long)).map((a) => a.id)).toEqual([longOne.id]);
  });
});

describe('transitions with integration rules', () => {
  it('resolves from open and acknowledges from open, recording the integration as actor', async () => {
    const { alert } = await insertNewAlert(me.accountId, input(), integration);
    const asIntegration = { actor: integration, rules: 'integration' as const };
    const resolved = await resolveAlert(me.accountId, alert.id, asIntegration);
    expect(resolved.status).toBe('resolved');
    expect(alertToEarlier(resolved).resolvedby).toBe(`int_${(integration as { integrationId: string }).integrationId}`);
    await expect(acknowledgeAlert(me.accountId, alert.id, asIntegration)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('resolved'),
    });
    await expect(resolveAlert(me.accountId, newId(), asIntegration)).rejects.toMatchObject({ status: 404 });
    await expect(archiveAlert(me.accountId, alert.id, asIntegration)).rejects.toMatchObject({ status: 409 });
  });
});

describe('raiseDedupCount', () => {
  it('raises to at least n once per inbound request, with one timeline entry per request', async () => {
    const { alert } = await insertNewAlert(me.accountId, input(), integration);
    const logA = newId();
    const logB = newId();
    const raised = await raiseDedupCount(me.accountId, alert.id, 2, logA);
    expect(raised?.dedup_count).toBe(2);
    // The queue redelivers the same request: no change, no second entry.
    expect((await raiseDedupCount(me.accountId, alert.id, 2, logA))?.dedup_count).toBe(2);
    expect((await raiseDedupCount(me.accountId, alert.id, 3, logB))?.dedup_count).toBe(3);
    // An older request arriving late never lowers the count.
    expect((await raiseDedupCount(me.accountId, alert.id, 2, `log_${logA}`))?.dedup_count).toBe(3);
    expect((await actions(alert)).filter((a) => a === 'deduplicated')).toHaveLength(2);
    expect(await raiseDedupCount(me.accountId, newId(), 2)).toBeNull();
  });
});

describe('routing worker', () => {
  it('reports only the records that failed, and fails unreadable messages (they end in the DLQ)', async () => {
    const { handler } = await import('../../functions/queue/routing-worker');
    const { alert } = await insertNewAlert(me.accountId, input(), integration);
    const record = (messageId: string, body: string) =>
      ({
        messageId,
        receiptHandle: messageId,
        body,
        attributes: {},
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn',
        awsRegion: 'us-east-1',
      }) as never;
    const result = await handler(
      {
        Records: [
          record('good', JSON.stringify({ account_id: me.accountId, alert_id: alert.id })),
          record('bad', '{not json'),
          record('absent', JSON.stringify({ account_id: me.accountId, alert_id: newId() })),
        ],
      },
      { functionName: 'routingWorker' } as never,
    );
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect((await getAlert(me.accountId, alert.id))?.routed_at).not.toBeNull();
    const allBad = await handler({ Records: [record('x', 'nope')] }, { functionName: 'routingWorker' } as never);
    expect(allBad.batchItemFailures).toEqual([{ itemIdentifier: 'x' }]);
  });
});

describe('routing', () => {
  it('is idempotent and finishes an attempt that stopped between its writes', async () => {
    const teamId = newId();
    const { alert } = await insertNewAlert(me.accountId, input({ destination_team_ids: [teamId] }), integration);
    // Whichever gets there first, the worker or this call, routes it once.
    await routeAlert({ account_id: me.accountId, alert_id: alert.id });
    const routed = (await getAlert(me.accountId, alert.id))!;
    expect(routed.assigned_team_id).toBe(teamId);
    expect(routed.assigned_user_id).toBe(me.userId);
    expect(await routeAlert({ account_id: me.accountId, alert_id: alert.id })).toBe('already-routed');
    expect((await actions(alert)).filter((a) => a === 'routed')).toHaveLength(1);

    // A crash after the decision was stored and before its timeline entry: a redelivery writes it.
    // Decided at create (straight to a person), the entry shares the `created` entry's item: a create
    // that stopped before that item has both written by any delivery but the create's own first.
    const crashed = await insertNewAlert(me.accountId, input(), integration);
    await routeAlert({ account_id: me.accountId, alert_id: crashed.alert.id });
    const current = (await getAlert(me.accountId, crashed.alert.id))!;
    expect(decidedAtCreate(current)).toBe(true);
    const entryId = current.routing_log_id!;
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: `A#${me.accountId}#LOG`, sk: current.id } }));
    expect((await logsOfOwner(me.accountId, `alt_${current.id}`)).some((l) => l.id === entryId)).toBe(false);
    expect(await routeAlert({ account_id: me.accountId, alert_id: current.id })).toBe('already-routed');
    const logs = await logsOfOwner(me.accountId, `alt_${current.id}`);
    expect(logs.filter((l) => l.id === entryId && l.data.action === 'routed')).toHaveLength(1);
    expect(logs.filter((l) => l.id === current.id && l.data.action === 'created')).toHaveLength(1);
    // The create's own message, delivered the first time, writes nothing there: the create wrote it.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: `A#${me.accountId}#LOG`, sk: current.id } }));
    expect(await routeAlert({ account_id: me.accountId, alert_id: current.id, decided: true }, undefined, true)).toBe('routed');
    expect((await logsOfOwner(me.accountId, `alt_${current.id}`)).some((l) => l.id === entryId)).toBe(false);

    // Routed by the worker (no destination: dropped), its entry alone: the same.
    const dropped = await insertNewAlert(me.accountId, input({ destination_account_user_ids: [] }), integration);
    await routeAlert({ account_id: me.accountId, alert_id: dropped.alert.id });
    const droppedNow = (await getAlert(me.accountId, dropped.alert.id))!;
    expect(decidedAtCreate(droppedNow)).toBe(false);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: `A#${me.accountId}#LOG`, sk: droppedNow.routing_log_id! } }));
    expect(await routeAlert({ account_id: me.accountId, alert_id: droppedNow.id })).toBe('already-routed');
    const droppedLogs = await logsOfOwner(me.accountId, `alt_${droppedNow.id}`);
    expect(droppedLogs.filter((l) => l.id === droppedNow.routing_log_id && l.data.action === 'dropped')).toHaveLength(1);
    expect(await routeAlert({ account_id: me.accountId, alert_id: newId() })).toBe('absent');
  });

  it('re-sends an unrouted alert when insertNewAlert is retried with its id', async () => {
    const id = newId();
    // An earlier attempt stored the alert but never handed it off (as if it crashed).
    const stored = await insertNewAlert(me.accountId, input(), integration, { id: newId() });
    void stored;
    const now = new Date().toISOString();
    const record = { ...stored.alert, id, tiny_id: 999_999, created_at: now, updated_at: now, routed_at: null };
    await importAlerts(me.accountId, [record]);
    const retry = await insertNewAlert(me.accountId, input(), integration, { id });
    expect(retry.created).toBe(false);
    // Routed by the routing worker once the runtime is at rest (the sweep of unrouted alerts not run).
    await settle(service);
    const routed = await getAlert(me.accountId, id);
    expect(routed?.routed_at).toEqual(expect.any(String));
    expect((await actions(routed!)).filter((a) => a === 'created')).toHaveLength(1);
  });
});

describe('the stored alert item', () => {
  const rawItem = async (id: string) =>
    (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `A#${me.accountId}#ALERT`, sk: id } }))).Item!;

  it('leaves out what the keys hold, a routing decision it derives and a self-keyed call, and reads them back', async () => {
    const teamId = newId();
    const { alert } = await insertNewAlert(me.accountId, input({ destination_team_ids: [teamId] }), integration);
    await routeAlert({ account_id: me.accountId, alert_id: alert.id });
    await acknowledgeAlert(me.accountId, alert.id, { actor: integration, rules: 'integration' });
    const item = await rawItem(alert.id);
    expect(item).not.toHaveProperty('id');
    expect(item).not.toHaveProperty('account_id');
    // Routed at create (straight to a team), its decision is what the alert derives: none of it stored.
    expect(item.routing_log_id).toBe('+');
    for (const field of ['routing', 'assignments', 'routed_at', 'assigned_team_id']) expect(item).not.toHaveProperty(field);
    const [key, call, to] = String(item._t0).split('\u001f');
    expect([key.length, call, to]).toEqual([26, '', 'acknowledged']);

    const read = (await getAlert(me.accountId, alert.id))!;
    expect(read).toMatchObject({ id: alert.id, account_id: me.accountId, status: 'acknowledged' });
    expect(read.routing).toMatchObject({ outcome: 'routed', reason: null, hops: [], skipped: [], automations: [], aggregate: null });
    expect(read.assignments).toEqual([
      { type: 'team', id: teamId, user_id: null, delay_ms: 0, via: null },
      { type: 'account_user', id: me.accountUserId, user_id: me.userId, delay_ms: 0, via: null },
    ]);
    expect(read).toMatchObject({ assigned_team_id: teamId, routed_at: read.created_at });
    expect(read.transitions[0]).toMatchObject({ key, call: key, from: 'open', to: 'acknowledged' });
    expect(await alertsByThirdpartyId(me.accountId, alert.thirdparty_id!)).toEqual([read]);
  });

  it('reads an item written before (id, account, whole routing record and marks) and changes it as any other', async () => {
    const { alert } = await insertNewAlert(me.accountId, input({ destination_team_ids: [newId()] }), integration);
    await routeAlert({ account_id: me.accountId, alert_id: alert.id });
    const routed = (await getAlert(me.accountId, alert.id))!;
    const item = await rawItem(alert.id);
    const key = newId();
    const written = {
      ...item,
      id: alert.id,
      account_id: me.accountId,
      routing: routed.routing,
      assignments: routed.assignments,
      status: 'acknowledged',
      _t0: [key, key, 'acknowledged', routed.updated_at].join('\u001f'),
      _f0: 'open',
    };
    await db().send(new PutCommand({ TableName: tableName(), Item: written }));
    const read = (await getAlert(me.accountId, alert.id))!;
    expect(read).toEqual({
      ...routed,
      status: 'acknowledged',
      transitions: [{ key, call: key, from: 'open', to: 'acknowledged', at: routed.updated_at }],
    });
    const resolved = await resolveAlert(me.accountId, alert.id, { actor: integration, rules: 'integration' });
    expect(resolved).toMatchObject({ id: alert.id, account_id: me.accountId, status: 'resolved' });
    expect((await getAlert(me.accountId, alert.id))!.transitions.map((m) => [m.to, m.call === m.key])).toEqual([
      ['resolved', true],
      ['acknowledged', true],
    ]);
  });
});
