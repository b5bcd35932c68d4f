// Counters that can be trusted (issue 9): after real work through the API every counter recounts as
// exact (the recount counts what the stores count), every counter item has a registered kind, the
// sweeper, one counter item per run, finds and repairs a counter a crash left off, and an alert made
// and routed by two deliveries at once counts each timeline entry once.
// @moto: counter items recounted from queries and repaired under conditions.
import { describe, expect, it } from 'vitest';
import { routeAlert } from '../../lib/alert-routing/route-alert';
import { insertNewAlert } from '../../lib/alerts/create-alert';
import { getAlert } from '../../lib/alerts/store';
import { recountAccount, repairNextCounter } from '../../lib/counters/recount-counters';
import { newId } from '../../lib/ids';
import { listLogsOfOwner } from '../../lib/logs/store';
import { adjustCounts, countKey } from '../../lib/store/counters';
import { withCountsDeferred } from '../../lib/store/deferred-counts';
import { addCounts, addOwnerCounts } from '../../lib/store/grouped-writes';
import { getItem } from '../../lib/store/items';
import { countedTypes, recountCounter } from '../../lib/store/recount';
import { whoAmI } from '../alerts/support';
import { createMember } from '../support/api-client';
import type { AwsCall } from '../support/aws-calls';
import { awsCallAnswered, holdAwsCalls } from '../support/aws-gates';
import { testClock } from '../support/dependencies';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { createEvent, createTeam } from '../teams/helpers';

let service: TestService;
let accountId: string;

useService(async (started) => {
  service = started;
  accountId = service.runtime.created!.account.id;
  const admin = service.admin;
  const { accountUser } = await createMember(admin, { name: 'Counted' });
  const team = await createTeam(admin, {
    name: 'Counted',
    member_account_user_ids: [accountUser.id],
    admin_account_user_ids: [accountUser.id],
  });
  await createEvent(admin, {
    start_datetime: '2026-05-04T09:00:00Z',
    end_datetime: '2026-05-04T17:00:00Z',
    time_zone: 'UTC',
    layer: 1,
    account_user_ids: [accountUser.id],
    schedule_ids: [team.schedule_id],
  });
  for (const urgency of ['high', 'low', 'critical']) {
    const alert = await admin.post('/api/v4/alerts', { title: urgency, urgency, destination_team_ids: [team.id] });
    expect(alert.status).toBe(201);
    await admin.post(`/api/v4/alerts/${alert.body.id}/comments`, { text: 'noted' });
    if (urgency !== 'low') expect((await admin.post(`/api/v4/alerts/${alert.body.id}/acknowledge`)).status).toBe(200);
  }
  await admin.post('/incident', { title: 'Incident', destination_ids: [`tem_${team.id}`] });
  await admin.post('/log', { content: 'a note', owner_id: `tem_${team.id}`, source_id: `usr_${accountUser.user_id}` });
  await admin.post('/api/v4/integrations', { name: 'Counted', urgency: 'high', integration_type_id: 'webhook', team_ids: [team.id] });
});

describe('recounting', () => {
  it('finds every counter exact after real work, and every counter item has a registered kind', { tags: ['moto'] }, async () => {
    // Routing and timeline writes come to rest first: the routing worker runs in this process.
    await settle(service);
    const results = await recountAccount(accountId, { settleMs: 200 });
    expect(results.filter((r) => r.status !== 'exact')).toEqual([]);
    const types = results.map((r) => r.type);
    for (const type of ['ACU', 'ALERT', 'CMT', 'ESC', 'EVT', 'INT', 'LOG', 'SKD', 'TEAM']) expect(types).toContain(type);
    expect(countedTypes()).not.toContain('APIKEY');
  });

  it('leaves a counter that moves while it is read alone, and repairs it once it is still', { tags: ['moto'] }, async () => {
    await adjustCounts(accountId, 'SKD', { total: 4 });
    // A write lands between the two readings: nothing is corrected.
    const busy = await recountCounter(accountId, 'SKD', { attempts: 1, between: () => adjustCounts(accountId, 'SKD', { total: 1 }) });
    expect(busy).toMatchObject({ status: 'busy' });
    const repaired = await recountCounter(accountId, 'SKD', { settleMs: 100 });
    expect(repaired.status).toBe('repaired');
    expect(repaired.corrections.total.now).toBe(repaired.corrections.total.was - 5);
    expect((await service.admin.get('/api/v4/schedules')).body.total_count).toBe(repaired.corrections.total.now);
  });
});

describe("the sweeper's repair", () => {
  it('walks one counter item per run through every type and repairs the one a crash left off', { tags: ['moto'] }, async () => {
    const exact = (await service.admin.get('/api/v4/teams')).body.total_count;
    await adjustCounts(accountId, 'TEAM', { total: -1 });
    expect((await service.admin.get('/api/v4/teams')).body.total_count).toBe(exact - 1);
    const visited: string[] = [];
    for (let run = 0; run < 2 * countedTypes().length + 2; run++) {
      const done = await repairNextCounter({ settleMs: 100 });
      visited.push(`${done?.account_id} ${done?.result.type} ${done?.result.status}`);
      if (done?.result.type === 'TEAM' && done.result.status === 'repaired') break;
    }
    expect(visited.at(-1)).toBe(`${accountId} TEAM repaired`);
    expect((await service.admin.get('/api/v4/teams')).body.total_count).toBe(exact);
    // The walk goes on from there: the next run takes the next type.
    const next = await repairNextCounter({ settleMs: 100 });
    expect(next!.result.type > 'TEAM' || next!.result.type === countedTypes()[0]).toBe(true);
  });

  it('runs inside the scheduled sweeper', async () => {
    await adjustCounts(accountId, 'EVT', { total: 2 });
    for (let run = 0; run < 2 * countedTypes().length + 2; run++) {
      await service.runtime.runScheduled('sweeper');
      if ((await service.admin.get('/api/v4/events')).body.total_count === 1) break;
    }
    expect((await service.admin.get('/api/v4/events')).body.total_count).toBe(1);
  }, 60_000);
});

type Marshalled = Record<string, { S?: string; M?: Marshalled }>;

/** The action of a timeline entry of the alert that a stored item is, else null. */
function entryAction(item: Marshalled | undefined, alertId: string): string | null {
  if (item?.type?.S !== 'alert' || item.owner_id?.S !== `alt_${alertId}`) return null;
  return item.data?.M?.action?.S ?? null;
}

/** The actions of the alert's timeline entries that a BatchWriteItem puts. */
function batchedActions(call: AwsCall, alertId: string): string[] {
  if (call.operation !== 'BatchWriteItem') return [];
  const tables = Object.values(call.input.RequestItems as Record<string, Array<{ PutRequest?: { Item: Marshalled } }>>);
  return tables.flat().flatMap((request) => entryAction(request.PutRequest?.Item, alertId) ?? []);
}

describe('timeline entries written twice at once', () => {
  it('an alert stored and routed by two deliveries at once counts each of its entries once', { tags: ['moto'] }, async () => {
    await settle(service);
    const me = await whoAmI(service.admin);
    const actor = { type: 'AccountUser', accountUserId: me.accountUserId, userId: me.userId } as const;
    const alertId = newId();
    const input = { title: 'Delivered twice', urgency: 'low' as const };
    const putsOf = (action: (found: string) => boolean) => (call: AwsCall) => batchedActions(call, alertId).some(action);
    // Routing waits until both hand-offs are made, so that the second finds the alert never routed.
    const routingSends = holdAwsCalls(
      (call) => call.operation === 'SendMessageBatch' && call.input.QueueUrl === service.runtime.queues.routing.url,
    );
    const createdPut = holdAwsCalls(
      putsOf((action) => action === 'created'),
      1,
    );
    let routedPut: ReturnType<typeof holdAwsCalls> | undefined;
    try {
      // The delivery that stores the alert puts its 'created' entry with the grouped puts: held there.
      const first = insertNewAlert(accountId, input, actor, { id: alertId, fresh: true });
      const created = await createdPut.next();
      // A duplicate finds the alert stored and not routed: its conditional put of the entry lands first.
      const duplicateWrote = awsCallAnswered(
        (call) => call.operation === 'PutItem' && entryAction(call.input.Item as Marshalled, alertId) === 'created',
      );
      const duplicate = insertNewAlert(accountId, input, actor, { id: alertId });
      await duplicateWrote;
      await created.release();

      // Routing alike: the worker's delivery stores the decision and puts its entries grouped (held);
      // a redelivery finds the alert routed and writes them first.
      routedPut = holdAwsCalls(
        putsOf((action) => action !== 'created'),
        1,
      );
      routingSends.open();
      const routed = await routedPut.next();
      expect(await routeAlert({ account_id: accountId, alert_id: alertId })).toBe('already-routed');
      await routed.release();
      expect((await first).created).toBe(true);
      expect((await duplicate).created).toBe(false);
    } finally {
      routingSends.open();
      createdPut.open();
      routedPut?.open();
    }
    await settle(service);

    const actions = (await listLogsOfOwner(accountId, `alt_${alertId}`)).map((log) => String(log.data.action));
    expect(actions.filter((action) => action === 'created')).toHaveLength(1);
    expect(actions.filter((action) => ['routed', 'dropped', 'suppressed'].includes(action))).toHaveLength(1);
    expect(await recountCounter(accountId, 'ALERT', { settleMs: 100 })).toEqual({ type: 'ALERT', status: 'exact', corrections: {} });
  });

  it(
    'two deliveries routing an alert in the same millisecond: one decides and counts, the other finishes',
    { tags: ['moto'] },
    async () => {
      await settle(service);
      const me = await whoAmI(service.admin);
      const actor = { type: 'AccountUser', accountUserId: me.accountUserId, userId: me.userId } as const;
      const alertId = newId();
      // Held: the worker does not route the alert before the two deliveries below.
      const routingSends = holdAwsCalls(
        (call) => call.operation === 'SendMessageBatch' && call.input.QueueUrl === service.runtime.queues.routing.url,
      );
      try {
        const creating = insertNewAlert(accountId, { title: 'Routed twice', urgency: 'low' }, actor, { id: alertId, fresh: true });
        await routingSends.next();
        const alert = await getAlert(accountId, alertId);
        // Both read the alert unrouted (the worker's batch read) and decide at the same time.
        testClock.freeze();
        const message = { account_id: accountId, alert_id: alertId };
        const outcomes = await Promise.all([routeAlert(message, alert), routeAlert(message, alert)]);
        expect(outcomes.sort()).toEqual(['already-routed', 'routed']);
        routingSends.open();
        expect((await creating).created).toBe(true);
      } finally {
        routingSends.open();
      }
      await settle(service);
      expect(await recountCounter(accountId, 'ALERT', { settleMs: 100 })).toEqual({ type: 'ALERT', status: 'exact', corrections: {} });
    },
  );
});

describe("an escalation step's counts, held back to its end", () => {
  it('are written summed, one update per counter item, after the work and also when it fails', { tags: ['moto'] }, async () => {
    await settle(service);
    const owner = `ALT#${newId()}`;
    const counterItem = async () => (await getItem(countKey(accountId, 'NTF')))!;
    // Every applied ADD shifts in its token (_w0 newest): one update means the old newest is second.
    const before = await counterItem();
    const field = 'channel:deferred-test';
    const seen = await withCountsDeferred(async () => {
      await Promise.all([addCounts(accountId, 'NTF', { total: 1, [field]: 1 }), addOwnerCounts(accountId, 'NTF', { [owner]: 1 })]);
      await addCounts(accountId, 'NTF', { total: 1, [field]: 1 });
      await addOwnerCounts(accountId, 'NTF', { [owner]: 1 });
      // Nothing is written while the work runs.
      return counterItem();
    });
    expect(seen[field]).toBeUndefined();
    const after = await counterItem();
    expect([after[field], (after.total as number) - (before.total as number)]).toEqual([2, 2]);
    expect(after._w1).toBe(before._w0);
    expect((await getItem({ pk: `A#${accountId}#OCOUNT#NTF`, sk: owner }))?.n).toBe(2);

    // A failing work's counts are written all the same: what it stored is counted.
    const failing = withCountsDeferred(async () => {
      await addCounts(accountId, 'NTF', { total: -2, [field]: -2 });
      await addOwnerCounts(accountId, 'NTF', { [owner]: -2 });
      throw new Error('the step failed');
    });
    await expect(failing).rejects.toThrow('the step failed');
    const undone = await counterItem();
    expect([undone[field], undone.total, undone._w1]).toEqual([0, before.total, after._w0]);
    expect((await getItem({ pk: `A#${accountId}#OCOUNT#NTF`, sk: owner }))?.n).toBe(0);

    // What the work left running adds after the sums were written is written then, not lost.
    let late!: Promise<void>;
    await withCountsDeferred(async () => {
      late = new Promise((resolve) => setTimeout(resolve, 20)).then(() => addCounts(accountId, 'NTF', { [field]: 1 }));
    });
    await late;
    expect((await counterItem())[field]).toBe(1);
    await adjustCounts(accountId, 'NTF', { [field]: -1 });
  });
});
