// What an escalation step writes to its own item (lib/escalation/run-step.ts): a step that pages
// commits its state, outbox and lease, then releases it; its due time is written where the write
// budget allows it once (docs/ARCHITECTURE.md, "Write budget per alert life"): the routing's step
// writes the layer's timeout at its commit (its message comes again should it die), and the
// acknowledgement's stop, whose only effects close workflows (the state's own: no item of theirs),
// commits once, and a resolve after it writes nothing (lib/escalation/stop-escalation.ts HOLDS). The
// outbox a commit stores holds only the effects that write something.
import { describe, expect, it } from 'vitest';
import { getAlert } from '../../lib/alerts/store';
import { carryOutEffects, writesNothing } from '../../lib/escalation/effects';
import type { EscalationEffect } from '../../lib/escalation/engine';
import { StepInputs } from '../../lib/escalation/inputs';
import { pageWorkflow } from '../../lib/escalation/reject-workflows';
import { startEscalation } from '../../lib/escalation/start-escalation';
import { unpackJson } from '../../lib/escalation/state-codec';
import { getEscalation } from '../../lib/escalation/store';
import type { ApiClient } from '../support/api-client';
import { dynamoCallsDuring, onServiceClients } from '../support/aws-calls';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { alertTo, notificationsOf, pagedAtRest, pagedPeople, person, sentFor, team } from './support';

let service: TestService;
let admin: ApiClient;
let accountId: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
});

interface Write {
  operation: string;
  /** The due time a commit puts (null: none). */
  dueAt?: number | null;
  /** The effects of the outbox a commit puts. */
  outbox?: EscalationEffect[];
  update?: string;
}

type Marshalled = { S?: string; N?: string; B?: Uint8Array };

/**
 * The writes of the alert's escalation item, and any write of a workflow item (none since they live
 * in the escalation item), that applied, in the order they
 * were answered (on a loaded machine a queue message may come twice, and its step's refused write is
 * none of the step's own).
 */
function recordWrites(alertIdOf: () => string | null) {
  const writes: Write[] = [];
  const stop = onServiceClients('stepWrites', (client) => (next, context) => async (args) => {
    const answer = await next(args);
    const operation = (context.commandName ?? '').replace(/Command$/, '');
    const input = args.input as { Key?: Record<string, Marshalled>; Item?: Record<string, Marshalled>; UpdateExpression?: string };
    const key = input.Key ?? input.Item;
    const alertId = alertIdOf();
    if (client === 'dynamodb' && alertId && key?.pk?.S === `ESC#${accountId}#${alertId}`) {
      if (operation === 'PutItem')
        writes.push({
          operation,
          dueAt: input.Item?.due_at?.N ? Number(input.Item.due_at.N) : null,
          outbox: unpackJson<EscalationEffect[]>(input.Item?.outbox?.B) ?? [],
        });
      if (operation === 'UpdateItem') writes.push({ operation, update: input.UpdateExpression });
    }
    if (client === 'dynamodb' && key?.pk?.S?.startsWith(`A#${accountId}#WKF`)) writes.push({ operation: `workflow ${operation}` });
    return answer;
  });
  return { writes, stop };
}

describe('an escalation step’s writes of its own item', () => {
  it('the routing’s step puts its layer’s timeout once; the acknowledgement’s stop writes once, the resolve’s after it none; no workflow item is written', async () => {
    const a = await person(admin);
    const t = await team(admin, { layers: [[a.id]], timeouts: [10] });
    let alertId: string | null = null;
    const { writes, stop } = recordWrites(() => alertId);
    try {
      alertId = (await alertTo(admin, { teams: [t.id] })).id;
      await sentFor(admin, alertId, (sent) => sent.length === 2 && sent.every((n) => n.status === 'sent'));
      await settle(service);
      const paged = await getEscalation(accountId, alertId);
      expect(paged.leaseOwner).toBeNull();
      // The commit (a put) already holds the due time the release leaves: no leftover time between.
      expect(
        writes.map((w) => w.operation),
        JSON.stringify(writes),
      ).toEqual(['PutItem', 'UpdateItem']);
      expect(writes[0].dueAt).toBe(paged.dueAt);
      expect(writes[1].update).toContain('gsi5sk = :gsk');
      // The workflow the step opened is the state's; its outbox holds the pages (and nothing that writes nothing).
      const stored = writes[0].outbox!;
      expect(stored.map((e) => e.type)).toContain('page');
      expect(stored.filter(writesNothing)).toEqual([]);
      expect(stored.map((e) => e.type)).not.toContain('open_workflow');

      writes.length = 0;
      expect((await a.client.post(`/api/v4/alerts/${alertId}/acknowledge`)).status).toBe(200);
      await settle(service);
      // One put, which closes the workflow in the state: no lease taken, nothing left to release, nothing due.
      expect(writes.map((w) => w.operation)).toEqual(['PutItem']);
      expect(writes[0].dueAt).toBeNull();
      const stopped = await getEscalation(accountId, alertId);
      expect(stopped).toMatchObject({ outbox: [], leaseOwner: null, dueAt: null });
      expect(stopped.state?.outcome).toBe('acknowledged');
      const workflowId = (await admin.get(`/api/v4/notifications?alert_id=${alertId}&limit=1`)).body.data[0].workflow_id as string;
      // Its step ended with the stop: the workflow is no longer anyone's to answer.
      expect(await pageWorkflow(accountId, alertId, workflowId.replace(/^wkf_/, ''))).toBeNull();

      // The resolve after it has nothing to stop: the acknowledged state holds it, no write.
      writes.length = 0;
      expect((await a.client.post(`/api/v4/alerts/${alertId}/resolve`)).status).toBe(200);
      await settle(service);
      expect(writes).toEqual([]);
      expect((await getEscalation(accountId, alertId)).state?.outcome).toBe('acknowledged');
    } finally {
      stop();
    }
  });

  it('a hand-off start that comes after the resolve (its state left acknowledged) pages nobody and records the resolve', async () => {
    const a = await person(admin);
    const b = await person(admin);
    const t = await team(admin, { layers: [[a.id]], timeouts: [10] });
    const other = await team(admin, { layers: [[b.id]], timeouts: [10] });
    const alertId = (await alertTo(admin, { teams: [t.id] })).id;
    await sentFor(admin, alertId, (sent) => sent.length === 2 && sent.every((n) => n.status === 'sent'));
    expect((await a.client.post(`/api/v4/alerts/${alertId}/acknowledge`)).status).toBe(200);
    expect((await a.client.post(`/api/v4/alerts/${alertId}/resolve`)).status).toBe(200);
    await settle(service);
    expect((await getEscalation(accountId, alertId)).state?.outcome).toBe('acknowledged');
    const pagedBefore = (await notificationsOf(admin, alertId)).length;

    // A hand-off's start that read the alert before the resolve (its message late): the step applies the
    // alert's resolve before the start, so it starts nothing.
    const started = await startEscalation({
      accountId,
      alertId,
      key: `handoff:late:${alertId}`,
      targets: [{ type: 'team', id: other.id.replace(/^tem_/, '') }],
      template: 'alert_handoff',
    });
    expect(started?.ignored).toBe('alert_stopped');
    await settle(service);
    expect(await notificationsOf(admin, alertId)).toHaveLength(pagedBefore);
    expect(pagedPeople(await notificationsOf(admin, alertId))).toEqual([a.id]);
    const stopped = await getEscalation(accountId, alertId);
    expect(stopped.state?.outcome).toBe('resolved');
    expect(stopped.dueAt).toBeNull();
  });
});

describe('what an effect writes', () => {
  it('an effect kept out of the outbox writes nothing when carried out; a timeout’s close and a reassignment write', async () => {
    const { a, t, alertId } = await pagedAtRest(admin, service, [10]);
    const alert = (await getAlert(accountId, alertId))!;
    const at = Date.now();
    const bare = (id: string) => id.replace(/^[a-z]+_/, '');
    const base = { at, assignmentId: 'a0', accountUserId: bare(a.id), workflowId: 'w0' };
    const nothing: EscalationEffect[] = [
      { ...base, type: 'open_workflow', key: 'k/open', teamId: null, round: 0, layer: 1, template: 'alert_alert' },
      { ...base, type: 'close_workflow', key: 'k/ack', status: 'acknowledged' },
      { ...base, type: 'close_workflow', key: 'k/rej', status: 'rejected' },
      { type: 'log', key: 'k/stopped', at, kind: 'stopped', assignmentId: 'a0', detail: {} },
      {
        type: 'assignment_started',
        key: 'k/start',
        at,
        assignmentId: 'a1',
        target: { type: 'team', teamId: bare(t.id) },
        origin: 'route',
        parentAssignmentId: null,
      },
    ] as EscalationEffect[];
    const something: EscalationEffect[] = [
      { ...base, type: 'close_workflow', key: 'k/timeout', status: 'timed_out' },
      { type: 'log', key: 'k/escalated', at, kind: 'escalated', assignmentId: 'a0', detail: {} },
      {
        type: 'assignment_started',
        key: 'k/reassign',
        at,
        assignmentId: 'a2',
        target: { type: 'account_user', accountUserId: bare(a.id) },
        origin: 'reassign',
        parentAssignmentId: 'a0',
      },
    ] as EscalationEffect[];
    const carry = (effect: EscalationEffect) =>
      dynamoCallsDuring(() =>
        carryOutEffects([effect], { accountId, alertId, inputs: new StepInputs(accountId, alert, at, 1), mayStart: () => true }),
      );
    for (const effect of nothing) {
      expect(writesNothing(effect), effect.key).toBe(true);
      expect((await carry(effect)).calls, effect.key).toEqual([]);
    }
    for (const effect of something) {
      expect(writesNothing(effect), effect.key).toBe(false);
      const { calls } = await carry(effect);
      expect(calls.filter((c) => c.operation !== 'GetItem' && c.operation !== 'Query').length, effect.key).toBeGreaterThan(0);
    }
  });

  it('the step that committed its outbox puts its timeline entries unconditionally, counted once; a take-over of the same entry counts nothing', async () => {
    const { alertId } = await pagedAtRest(admin, service, [10]);
    const alert = (await getAlert(accountId, alertId))!;
    const at = Date.now();
    const effect = { type: 'log', key: `k/escalated/${at}`, at, kind: 'escalated', assignmentId: 'a0', detail: {} } as EscalationEffect;
    const logTotal = async () => (await admin.get('/log?limit=1')).body.total_count as number;
    const carry = (committedNow: boolean) =>
      dynamoCallsDuring(() =>
        carryOutEffects([effect], {
          accountId,
          alertId,
          inputs: new StepInputs(accountId, alert, at, 1),
          mayStart: () => true,
          committedNow,
        }),
      );
    const logWrites = (calls: Awaited<ReturnType<typeof carry>>['calls']) =>
      calls
        .filter(
          (call) => ['PutItem', 'BatchWriteItem'].includes(call.operation) && JSON.stringify(call.input).includes(`A#${accountId}#LOG`),
        )
        .map((call) => `${call.operation}${call.input.ConditionExpression ? ' (conditional)' : ''}`);
    const before = await logTotal();
    expect(logWrites((await carry(true)).calls)).toEqual(['BatchWriteItem']);
    expect(await logTotal()).toBe(before + 1);
    // A take-over carrying the same outbox out again: its conditional put finds the entry, counts nothing.
    expect(logWrites((await carry(false)).calls)).toEqual(['PutItem (conditional)']);
    expect(await logTotal()).toBe(before + 1);
    const escalated = (await admin.get(`/log?owner_id=alt_${alertId}&limit=100`)).body.data.filter(
      (log: { data: { action: string; time: string } }) => log.data.action === 'escalated' && log.data.time === new Date(at).toISOString(),
    );
    expect(escalated).toHaveLength(1);
  });
});
