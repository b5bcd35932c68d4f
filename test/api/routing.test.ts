// Routing end to end through the real local server (docs/api.md#alerts, docs/api.md#routers-and-automations, issue 11): a webhook into an
// integration whose destination is a router, the routing queue's worker evaluating the chain, the
// actions applied (assign with delay, ignore, setval, incident, aggregate, stakeholder, automation),
// every step on the alert's timeline, chains too deep or looping dropped, and redelivery applying
// nothing twice. TIME_SCALE shortens the aggregate window.
// @moto: the aggregate window's conditional claim and redelivered messages.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../lib/alerts/records';
import { getAlert } from '../../lib/alerts/store';
import { getLog } from '../../lib/logs/store';
import { routeAlert } from '../../lib/alert-routing/route-alert';
import { useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { createTeam, people, type Person } from '../teams/helpers';
import { startHttpTarget, type HttpTarget } from '../support/http-target';
import { createIntegration, eventually } from '../integrations/support';
import { testClock } from '../support/dependencies';
import { settle } from '../support/quiescence';
import { DeleteCommand, GetCommand, UpdateCommand } from '../../lib/store/commands';
import { db, tableName } from '../../lib/store/client';
import { packIdsEndingAt } from '../../lib/logs/packed';
import { sequencedUlid } from '../../lib/ids';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let bob: Person;
let teamA: { id: string; prefix_id: string; schedule_id: string };
let teamB: { id: string; prefix_id: string };
let accountId: string;
let target: HttpTarget;
let sqs: SQSClient;

beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(async () => {
  await target?.close();
  sqs?.destroy();
});

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    [alice, bob] = await people(admin, 2);
    teamA = await createTeam(admin, { name: 'Team A', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    teamB = await createTeam(admin, { name: 'Team B', member_account_user_ids: [bob.id], admin_account_user_ids: [bob.id] });
    // Someone on call on each team, for longer than a test takes on a loaded machine (24 hours ÷ 600
    // = 144 s): the alerts routed here start escalating and stay open, their timelines still, meanwhile.
    for (const [team, who] of [
      [teamA, alice],
      [teamB, bob],
    ] as const) {
      const full = (await admin.get(`/api/v4/teams/${team.id}`)).body;
      await admin.put(`/api/v4/escalation_policies/${full.escalation_policy_id}`, {
        escalation_layers: [{ layer: 1, timeout: 24, timeout_unit: 'hours' }],
      });
      await admin.post('/api/v4/events', {
        schedule_ids: [full.schedule_id],
        account_user_ids: [who.id],
        layer: 1,
        start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
        end_datetime: new Date(Date.now() + 86_400_000).toISOString(),
        time_zone: 'UTC',
      });
    }
    accountId = (await admin.get(`/api/v4/account_users/${alice.id}`)).body.account_id;
    sqs = new SQSClient({
      endpoint: service.runtime.emulators.sqsEndpoint,
      region: process.env.AWS_REGION ?? 'us-east-1',
      useQueueUrlAsEndpoint: false,
      credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! },
    });
  },
  { env: { TIME_SCALE: '600', ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true' } },
);

const uid = () => Math.random().toString(36).slice(2, 10);

async function router(rules: string | null, defaults: Record<string, unknown> = { default_receiver_team_id: teamA.id }, extra = {}) {
  const res = await admin.post('/api/v4/routers', { name: `r-${uid()}`, rules, ...defaults, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; prefix_id: string };
}

/** The alert once routing stored its decision and wrote the outcome to the timeline (after it). */
async function routed(alertId: string): Promise<AlertRecord> {
  return eventually(
    async () => {
      const alert = await getAlert(accountId, alertId);
      return alert?.routed_at && alert.routing_log_id && (await getLog(accountId, alert.routing_log_id)) ? alert : undefined;
    },
    15_000,
    `alert ${alertId} to be routed`,
  );
}

async function timeline(alertId: string): Promise<any[]> {
  const res = await admin.get(`/log?owner_id=alt_${alertId}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A webhook into an integration pointing at `routerId`; the alert it made, routed. */
async function viaWebhook(routerId: string, body: Record<string, unknown>): Promise<AlertRecord> {
  const integration = await createIntegration(admin, { router_ids: [routerId] });
  const res = await service.anonymous.post(`/integration/${integration.prefix_id}`, { id: uid(), ...body });
  expect(res.status).toBe(202);
  const alert = await eventually(
    async () => {
      const list = await admin.get(`/api/v4/alerts?source_id=${integration.id}`);
      return list.body.data[0];
    },
    15_000,
    'the webhook to make an alert',
  );
  return routed(alert.id);
}

async function viaApi(routerIds: string[], fields: Record<string, unknown> = {}): Promise<AlertRecord> {
  const res = await admin.post('/api/v4/alerts', { title: 'Routed', urgency: 'high', destination_router_ids: routerIds, ...fields });
  expect(res.status, res.text).toBe(201);
  return routed(res.body.id);
}

describe('routing through routers', () => {
  it('integration → router: setval from the request, incident, stakeholders, every team assigned, each step on the timeline', async () => {
    const rules = `rules:
  - match:
      log.data.service: payments
      alert.urgency: high
    actions:
      - type: setval
        map:
          title: "[{{log.data.service}}] {{alert.title}}"
          urgency: critical
          tags: ["{{log.data.service}}", routed]
      - type: incident
        severity: SEV-2
        message: "Paging for {{alert.title}}"
      - type: stakeholder
        ids: [stk_01ARZ3NDEKTSV4RRFFQ69G5FAV]
      - type: assign
        receiver: [${teamA.prefix_id}, ${teamB.prefix_id}]
      - type: assign
        receiver: usr_${bob.userId}
        delay: 10m
`;
    const r = await router(rules, { default_receiver_account_user_id: alice.id });
    const alert = await viaWebhook(r.id, { title: 'Card errors', urgency: 'high', service: 'payments' });
    expect(alert.title).toBe('[payments] Card errors');
    expect(alert.urgency).toBe('critical');
    expect(alert.tag_list).toEqual(['payments', 'routed']);
    expect(alert.meta).toMatchObject({ incident: true, incident_severity: 'SEV-2', incident_message: 'Paging for Card errors' });
    expect(alert.stakeholder_ids).toEqual(['01ARZ3NDEKTSV4RRFFQ69G5FAV']);
    expect(alert.assignments.map((a) => [a.type, a.id, a.delay_ms])).toEqual([
      ['team', teamA.id, 0],
      ['team', teamB.id, 0],
      ['account_user', bob.id, 600_000],
    ]);
    const earlier = (await admin.get(`/alert/alt_${alert.id}`)).body;
    expect(earlier).toMatchObject({
      d_team_id: teamA.prefix_id,
      d_user_id: `usr_${bob.userId}`,
      status: 'open',
      tags: ['payments', 'routed'],
    });
    expect(earlier.stakeholder_ids).toEqual(['stk_01ARZ3NDEKTSV4RRFFQ69G5FAV']);
    const v4 = (await admin.get(`/api/v4/alerts/${alert.id}`)).body;
    expect(v4.meta.incident).toBe(true);
    const steps = await eventually(async () => {
      const entries = await timeline(alert.id);
      return entries.some((l) => l.data.action === 'router') ? entries : undefined;
    });
    const actions = steps.map((l) => l.data.action);
    expect(actions.slice(0, 3)).toEqual(['created', 'router', 'routed']);
    const hop = steps.find((l) => l.data.action === 'router');
    expect(hop.data).toMatchObject({ router_id: r.prefix_id, rule_index: 0, outcome: 'matched' });
    expect(hop.data.actions.map((a: { type: string }) => a.type)).toEqual(['setval', 'incident', 'stakeholder', 'assign', 'assign']);
    const outcome = steps.find((l) => l.data.action === 'routed');
    expect(outcome.data.assignments).toHaveLength(3);
  });

  it('no rule matches, or a disabled router: the default receivers', async () => {
    const r = await router(`rules:\n  - match:\n      alert.urgency: low\n    actions:\n      - type: ignore\n`, {
      default_receiver_team_id: teamB.id,
      default_receiver_account_user_id: alice.id,
    });
    const alert = await viaApi([r.id]);
    expect(alert.assignments.map((a) => a.id)).toEqual([teamB.id, alice.id]);
    expect(alert.status).toBe('open');
    await admin.put(`/api/v4/routers/${r.id}`, { enabled: false });
    const low = await viaApi([r.id], { urgency: 'low' });
    expect(low.status).toBe('open');
    expect(low.routing?.hops[0].outcome).toBe('disabled');
  });

  it('ignore suppresses the alert and stops', async () => {
    const r = await router(
      `rules:\n  - match:\n      always: true\n    actions:\n      - type: ignore\n      - type: assign\n        receiver: ${teamB.prefix_id}\n`,
    );
    const alert = await viaApi([r.id]);
    expect(alert.status).toBe('suppressed');
    expect(alert.assignments).toEqual([]);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('suppressed');
    expect((await timeline(alert.id)).map((l) => l.data.action)).toContain('suppressed');
    // A suppressed alert can be acknowledged on v4 (docs/api.md#alert-transitions).
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
  });

  it('receivers: an unknown one is logged and skipped, a user is their account user, a schedule is its team', async () => {
    const r = await router(`rules:
  - match: {always: true}
    actions:
      - type: assign
        receiver: [tem_01ARZ3NDEKTSV4RRFFQ69G5FAV, usr_${alice.userId}, skd_${teamA.schedule_id}]
`);
    const alert = await viaApi([r.id]);
    expect(alert.assignments.map((a) => [a.type, a.id])).toEqual([
      ['account_user', alice.id],
      ['team', teamA.id],
    ]);
    const outcome = (await timeline(alert.id)).find((l) => l.data.action === 'routed');
    expect(outcome.data.skipped).toEqual([{ receiver: 'tem_01ARZ3NDEKTSV4RRFFQ69G5FAV', reason: 'unknown team', via: r.prefix_id }]);
  });

  it('routers pass alerts on; a chain of 10 routes, 11 is dropped and logged; a loop is dropped', async () => {
    const chain: { id: string; prefix_id: string }[] = [];
    let next: Record<string, unknown> = { default_receiver_team_id: teamB.id };
    for (let i = 0; i < 11; i++) {
      const r = await router(null, next);
      chain.unshift(r);
      next = { default_receiver_router_id: r.id };
    }
    const ten = await viaApi([chain[1].id]);
    expect(ten.status).toBe('open');
    expect(ten.assignments.map((a) => a.id)).toEqual([teamB.id]);
    expect(ten.routing?.hops).toHaveLength(10);
    const eleven = await viaApi([chain[0].id]);
    expect(eleven.status).toBe('dropped');
    expect(eleven.assignments).toEqual([]);
    const dropped = (await timeline(eleven.id)).find((l) => l.data.action === 'dropped');
    expect(dropped.data.reason).toMatch(/deeper than 10/);
    expect(dropped.data).toMatchObject({ old_status: 'open', new_status: 'dropped' });

    const a = await router(null);
    const b = await router(null, { default_receiver_router_id: a.id });
    await admin.put(`/api/v4/routers/${a.id}`, { default_receiver_router_id: b.id, default_receiver_team_id: null });
    const looped = await viaApi([a.id]);
    expect(looped.status).toBe('dropped');
    expect(looped.routing?.reason).toMatch(/loop/);
  });

  it('aggregate: the first alert is routed, the next ones within the window become its children', { tags: ['moto'] }, async () => {
    const r = await router(`rules:
  - match: {always: true}
    actions:
      - type: aggregate
        by: [alert.title]
        timeout: 60m
        receiver: ${teamB.prefix_id}
`);
    const title = `Disk ${uid()}`;
    const first = await viaApi([r.id], { title });
    expect(first.parent_id).toBeNull();
    expect(first.assignments.map((a) => a.id)).toEqual([teamB.id]);
    const second = await viaApi([r.id], { title });
    expect(second.parent_id).toBe(first.id);
    expect(second.assignments).toEqual([]);
    expect((await admin.get(`/alert/alt_${second.id}`)).body.parent_id).toBe(`alt_${first.id}`);
    const other = await viaApi([r.id], { title: `${title} elsewhere` });
    expect(other.parent_id).toBeNull();
    // 60 minutes ÷ TIME_SCALE 600 = 6 s (long enough for the alerts above on a slow machine): once
    // the service's clock has passed it, a new window opens.
    testClock.advance(6_000);
    const later = await viaApi([r.id], { title });
    expect(later.parent_id).toBeNull();
    expect(later.assignments.map((a) => a.id)).toEqual([teamB.id]);
    // A resolved parent hands its window on at once.
    await admin.post(`/api/v4/alerts/${later.id}/resolve`);
    const afterResolve = await viaApi([r.id], { title });
    expect(afterResolve.parent_id).toBeNull();
  });

  it(
    'automation: runs once for the alert, logged on its timeline; a redelivered message applies nothing twice',
    { tags: ['moto'] },
    async () => {
      const automation = await admin.post('/automation', {
        name: 'Notify ticketing',
        settings: `url: ${target.url}/tickets\nmethod: POST\ndata:\n  title: "{{alert.title}}"\n  urgency: "{{alert.urgency}}"\n`,
      });
      expect(automation.status, automation.text).toBe(201);
      const r = await router(`rules:
  - match: {always: true}
    actions:
      - type: setval
        map:
          title: "[P1] {{alert.title}}"
          tags: ["{{alert.tags.length}}-tags", "x"]
      - type: automation
        id: ${automation.body.id}
      - type: assign
        receiver: ${teamA.prefix_id}
`);
      const before = target.received.length;
      const alert = await viaApi([r.id], { title: 'Queue stuck', tags: ['a'] });
      await eventually(async () => (target.received.length > before ? true : undefined), 10_000, 'the automation to run');
      const sent = target.received.slice(before);
      expect(sent).toHaveLength(1);
      expect(JSON.parse(sent[0].body)).toEqual({ title: '[P1] Queue stuck', urgency: 'high' });
      const entry = await eventually(
        async () => (await timeline(alert.id)).find((l) => l.data.action === 'automation'),
        5_000,
        'the automation entry',
      );
      expect(entry.data).toMatchObject({ automation_id: automation.body.id, status: 200 });
      const runs = await admin.get(`/log?owner_id=${automation.body.id}`);
      expect(runs.body.data[0].data).toMatchObject({ trigger: 'router', alert_id: `alt_${alert.id}` });

      // The escalation the routing started writes its own entries: counted once it is at rest.
      await settle(service);
      const steps = (await timeline(alert.id)).length;
      const version = (await getAlert(accountId, alert.id))!.version;
      // Redelivery: the same message again, through the queue and by a direct call.
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: service.runtime.queues.routing.url,
          MessageBody: JSON.stringify({ account_id: accountId, alert_id: alert.id }),
        }),
      );
      await settle(service);
      const again = (await getAlert(accountId, alert.id))!;
      expect(again.title).toBe('[P1] Queue stuck');
      expect(again.tag_list).toEqual(['1-tags', 'x']);
      expect(again.version).toBe(version);
      expect(target.received.length).toBe(before + 1);
      expect((await timeline(alert.id)).length).toBe(steps);
      expect(await routeAlert({ account_id: accountId, alert_id: alert.id })).toBe('already-routed');
    },
  );

  it("a routing's entries are one item: the routers' at the ids right before the outcome's; a routing stored before is finished one item each", async () => {
    const last = await router(null, { default_receiver_team_id: teamB.id });
    const middle = await router(null, { default_receiver_router_id: last.id });
    const first = await router(null, { default_receiver_router_id: middle.id });
    const alert = await viaApi([first.id]);
    await settle(service);
    const outcomeId = alert.routing_log_id!;
    const ids = packIdsEndingAt(outcomeId, 4);
    const routingEntries = async (id: string) =>
      (await timeline(id)).filter((l) => l.data.action === 'router' || l.data.action === 'routed');
    const entries = await routingEntries(alert.id);
    expect(entries.map((l) => [l.id, l.data.action, l.data.router_id])).toEqual([
      [`log_${ids[0]}`, 'router', first.prefix_id],
      [`log_${ids[1]}`, 'router', middle.prefix_id],
      [`log_${ids[2]}`, 'router', last.prefix_id],
      [`log_${ids[3]}`, 'routed', undefined],
    ]);
    // One item at the first id holds all four; the others are no keys of their own.
    const logKey = (sk: string) => ({ TableName: tableName(), Key: { pk: `A#${accountId}#LOG`, sk } });
    const item = (await db().send(new GetCommand(logKey(ids[0])))).Item!;
    expect(item.pack).toHaveLength(4);
    for (const id of ids.slice(1)) expect((await db().send(new GetCommand(logKey(id)))).Item).toBeUndefined();
    // Every entry is found by its id, as written alone.
    for (const [i, id] of ids.entries()) expect((await admin.get(`/log/log_${id}`)).body.data.action).toBe(i < 3 ? 'router' : 'routed');
    // A redelivery finishes nothing twice.
    const count = (await timeline(alert.id)).length;
    expect(await routeAlert({ account_id: accountId, alert_id: alert.id })).toBe('already-routed');
    await settle(service);
    expect((await timeline(alert.id)).length).toBe(count);

    // A routing stored before this format (its outcome id of sequence 1023), its entries lost to a
    // crash: finished one item per entry at the ids it had then (the routers' of their own).
    const before = await viaApi([first.id]);
    await settle(service);
    const base = Date.parse(before.routed_at!);
    const oldOutcome = sequencedUlid(base, 1023, `route:${before.id}:outcome:old`);
    await db().send(new DeleteCommand(logKey(packIdsEndingAt(before.routing_log_id!, 4)[0])));
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `A#${accountId}#ALERT`, sk: before.id },
        UpdateExpression: 'SET routing_log_id = :id',
        ExpressionAttributeValues: { ':id': oldOutcome },
      }),
    );
    expect(await routeAlert({ account_id: accountId, alert_id: before.id })).toBe('already-routed');
    await settle(service);
    const oldIds = [0, 1, 2].map((index) => sequencedUlid(base, index, `route:${before.id}:hop:${index}`));
    expect((await routingEntries(before.id)).map((l) => l.id)).toEqual([...oldIds, oldOutcome].map((id) => `log_${id}`));
    for (const id of [...oldIds, oldOutcome]) expect((await db().send(new GetCommand(logKey(id)))).Item?.pack).toBeUndefined();
  });

  it('an alert sent straight to a team is assigned to it, as before', async () => {
    const res = await admin.post('/api/v4/alerts', {
      title: 'Direct',
      urgency: 'low',
      destination_team_ids: [teamA.id, teamB.id],
      destination_account_user_ids: [alice.id],
    });
    const alert = await routed(res.body.id);
    expect(alert.assignments.map((a) => a.id)).toEqual([teamA.id, teamB.id, alice.id]);
    expect((await admin.get(`/alert/alt_${alert.id}`)).body).toMatchObject({
      d_team_id: teamA.prefix_id,
      d_user_id: `usr_${alice.userId}`,
    });
  });
});
