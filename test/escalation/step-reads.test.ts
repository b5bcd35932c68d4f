// What an escalation step reads, and how (lib/escalation/inputs.ts): the account's configuration
// (team, policy, the schedule's events, people, the account) eventually consistent, at half the read
// units, as a change to it is promised to steps within a second anyway; the alert and the
// escalation's own item strongly consistent, since acknowledge and resolve race them.
import { describe, expect, it } from 'vitest';
import { typeOf } from '../../lib/entities';
import { getAlert } from '../../lib/alerts/store';
import { runStep } from '../../lib/escalation/run-step';
import { startEscalation } from '../../lib/escalation/start-escalation';
import { getEscalation, removeEscalation } from '../../lib/escalation/store';
import type { ApiClient } from '../support/api-client';
import { dynamoCallsDuring, itemKeyOf, type AwsCall } from '../support/aws-calls';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { alertTo, notificationsOf, pagedAtRest, person, sentFor, team } from './support';

let service: TestService;
let admin: ApiClient;
let accountId: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
});

/** The partitions (`pk` without the account) a read asks for, and whether it asks consistently. */
function readsOf(calls: AwsCall[]): { what: string; consistent: boolean }[] {
  const prefix = `A#${accountId}#`;
  // An escalation's own item is `ESC#<account>#<alert>`, apart from the account's partitions.
  const partitionOf = (pk: string) => (pk.startsWith(prefix) ? pk.slice(prefix.length).split('#')[0] : `${pk.split('#')[0]}#`);
  return calls.flatMap((call) => {
    const input = call.input as {
      Key?: { pk?: { S?: string } };
      RequestItems?: Record<string, { Keys: { pk: { S: string } }[]; ConsistentRead?: boolean }>;
      ExpressionAttributeValues?: Record<string, { S?: string }>;
      IndexName?: string;
      ConsistentRead?: boolean;
    };
    if (call.operation === 'GetItem') return [{ what: partitionOf(input.Key?.pk?.S ?? ''), consistent: input.ConsistentRead === true }];
    if (call.operation === 'Query' && !input.IndexName)
      return [{ what: partitionOf(input.ExpressionAttributeValues?.[':pk']?.S ?? ''), consistent: input.ConsistentRead === true }];
    if (call.operation === 'BatchGetItem')
      return Object.values(input.RequestItems ?? {}).flatMap((request) =>
        request.Keys.map((key) => ({ what: partitionOf(key.pk.S), consistent: request.ConsistentRead === true })),
      );
    return [];
  });
}

describe('an escalation step’s reads', () => {
  it('reads the configuration eventually consistent and the alert and its escalation strongly', async () => {
    const a = await person(admin);
    const t = await team(admin, { layers: [[a.id]] });
    const { calls } = await dynamoCallsDuring(async () => {
      const alertId = (await alertTo(admin, { teams: [t.id] })).id;
      await sentFor(admin, alertId, (sent) => sent.length >= 1);
      await settle(service);
    });
    const reads = readsOf(calls);
    const how = (what: string) => [...new Set(reads.filter((read) => read.what === what).map((read) => read.consistent))];
    // The page went out, so each was read; a read of these the API made (the alert's create checks the
    // team exists, strongly) is allowed besides, so the step's reads are those of a kind only it makes.
    for (const kind of ['escalationPolicy', 'event', 'accountUser'] as const) expect(how(typeOf(kind)), kind).toContain(false);
    for (const kind of ['escalationPolicy', 'event'] as const) expect(how(typeOf(kind)), kind).toEqual([false]);
    expect(how('ACCOUNT#')).toEqual([false]);
    expect(how(typeOf('alert'))).toContain(true);
    expect(how(typeOf('alert'))).not.toContain(false);
    // Where a step reads the escalation item, strongly (the routing's start reads none: below).
    expect(how('ESC#')).not.toContain(false);
  });

  it('a start that presumes no escalation item reads none before its commit; where one is after all, it reads it and starts nothing twice', async () => {
    // A layer timeout far off, so no timer's step reads the item while the calls are counted.
    const { a, alertId } = await pagedAtRest(admin, service, [60]);
    // The routing's escalation gone (as a deleted alert's is): the start below finds no item.
    await removeEscalation(accountId, alertId);
    expect((await getEscalation(accountId, alertId)).version).toBe(0);
    const before = (await notificationsOf(admin, alertId)).length;
    const start = () =>
      startEscalation({ accountId, alertId, key: 'test-start', targets: [{ type: 'account_user', id: a.id }], presumeNone: true });
    const escalationCallsOf = (calls: AwsCall[]) =>
      calls.filter((call) => itemKeyOf(call)?.pk === `ESC#${accountId}#${alertId}`).map((call) => call.operation);

    const first = await dynamoCallsDuring(start);
    expect(first.result?.changed).toBe(true);
    // Its commit (only where none is) is the first call on the item; then its release.
    expect(escalationCallsOf(first.calls)[0]).toBe('PutItem');
    expect(escalationCallsOf(first.calls)).not.toContain('GetItem');
    expect(await sentFor(admin, alertId, (sent) => sent.length > before)).not.toHaveLength(0);
    await settle(service);
    const paged = (await notificationsOf(admin, alertId)).length;

    // The same start again, presuming none where the item is now: the commit fails, the step reads
    // the item (ownCommit's look, then the next attempt's) and finds the start applied.
    const again = await dynamoCallsDuring(start);
    expect(again.result?.changed).toBe(false);
    expect(escalationCallsOf(again.calls).slice(0, 2)).toEqual(['PutItem', 'GetItem']);
    await settle(service);
    expect(await notificationsOf(admin, alertId)).toHaveLength(paged);
  });

  it('a timer’s step reads the alert and the escalation item strongly', async () => {
    const { alertId } = await pagedAtRest(admin, service, [60]);
    const { calls } = await dynamoCallsDuring(() => runStep(accountId, alertId, { kind: 'due' }));
    const reads = readsOf(calls);
    expect(reads.filter((read) => read.what === 'ESC#')).toEqual([{ what: 'ESC#', consistent: true }]);
    expect(reads.filter((read) => read.what === typeOf('alert')).map((read) => read.consistent)).toEqual([true]);
  });

  it('the routing’s first step goes by the alert the routing saved: the alert is read twice, the routing’s and the look before paging', async () => {
    const a = await person(admin);
    const t = await team(admin, { layers: [[a.id]] });
    const { result: alertId, calls } = await dynamoCallsDuring(async () => {
      const id = (await alertTo(admin, { teams: [t.id] })).id;
      // At rest, the routing and its first step are done; nothing but them read the alert (the API's
      // create reads no alert, and nothing asks the API for it before this stop).
      await settle(service);
      return id;
    });
    expect(await sentFor(admin, alertId, (sent) => sent.length >= 1)).not.toHaveLength(0);
    const alertReads = calls.flatMap((call) => {
      const input = call.input as {
        Key?: { pk?: { S?: string }; sk?: { S?: string } };
        RequestItems?: Record<string, { Keys: { pk: { S: string }; sk: { S: string } }[] }>;
      };
      const isAlert = (key?: { pk?: { S?: string }; sk?: { S?: string } }) =>
        key?.pk?.S === `A#${accountId}#${typeOf('alert')}` && key.sk?.S === alertId;
      if (call.operation === 'GetItem') return isAlert(input.Key) ? ['read'] : [];
      if (call.operation === 'BatchGetItem')
        return Object.values(input.RequestItems ?? {}).flatMap((request) => request.Keys.filter(isAlert).map(() => 'read'));
      return [];
    });
    // The routing worker's read of its batch, then the step's look after its commit (a lone key is a
    // GetItem, keys read together a BatchGetItem: lib/store/items.ts getItem).
    expect(alertReads).toEqual(['read', 'read']);
  });

  it('the acknowledgement’s stop reads the escalation item once and goes by the alert its transition wrote', async () => {
    const { a, alertId } = await pagedAtRest(admin, service);
    const { calls } = await dynamoCallsDuring(async () => {
      const res = await a.client.post(`/api/v4/alerts/${alertId}/acknowledge`);
      expect(res.status, res.text).toBe(200);
      await settle(service);
    });
    const of = (pk: string, sk: string) =>
      calls.flatMap((call) => {
        const input = call.input as {
          Key?: { pk?: { S?: string }; sk?: { S?: string } };
          RequestItems?: Record<string, { Keys: { pk: { S: string }; sk: { S: string } }[] }>;
        };
        const is = (key?: { pk?: { S?: string }; sk?: { S?: string } }) => key?.pk?.S === pk && key.sk?.S === sk;
        if (call.operation === 'GetItem') return is(input.Key) ? ['GetItem'] : [];
        if (call.operation === 'BatchGetItem')
          return Object.values(input.RequestItems ?? {}).flatMap((request) => request.Keys.filter(is).map(() => 'BatchGetItem'));
        return [];
      });
    expect(of(`A#${accountId}#${typeOf('alert')}`, alertId)).toEqual([]);
    expect(of(`ESC#${accountId}#${alertId}`, 'STATE')).toEqual(['BatchGetItem']);
    // The stop is recorded all the same.
    expect((await getEscalation(accountId, alertId)).state?.outcome).toBe('acknowledged');
  });

  it('an alert handed to a step that is older than the one escalation went by is read again (a hand-off reopened it)', async () => {
    const [a, h] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id]], timeouts: [60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, alert.id, (sent) => sent.length >= 1);
    const acknowledged = await a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`);
    expect(acknowledged.status, acknowledged.text).toBe(200);
    const asAcknowledged = (await getAlert(accountId, alert.id))!;
    const handedOff = await a.client.post(`/alert/${alert.prefix_id}/handoff`, { to: `usr_${h.userId}` });
    expect(handedOff.status, handedOff.text).toBe(200);
    await settle(service);
    expect((await getEscalation(accountId, alert.id)).state?.outcome).toBe('escalating');
    // A step handed the acknowledged alert (as a stop late on the request path would be) reads the
    // reopened one instead, and leaves the hand-off's escalation running.
    await runStep(accountId, alert.id, { kind: 'due' }, { alert: asAcknowledged });
    expect((await getEscalation(accountId, alert.id)).state?.outcome).toBe('escalating');
  });
});
