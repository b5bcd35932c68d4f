// Every action answered truthfully when AWS loses an answer (issue 20): faults are injected at the
// SDK's transport of the service's own DynamoDB and SQS clients (test/support/aws-faults.ts: calls
// throttled, failed with a 500, or applied with their answer lost, each retried by the SDK), and
// acknowledges, resolves, rejects, archives, hand-offs, creates, one-click links and SMS replies go
// through the real HTTP server. Each answer must be true: 200 for one's own change (even when its
// write applied and only the answer was lost), 409 only when somebody else's change came first; each
// real transition has one timeline entry and one webhook event, and the counters are exact.
import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acknowledgeAlert } from '../../lib/alert-transitions/acknowledge';
import { rejectAlert } from '../../lib/alert-transitions/reject';
import { recountCreatedBuckets } from '../../lib/alerts/created-at-store';
import '../../lib/counters/counted-stores';
import { typeOf } from '../../lib/entities';
import { outboxMessages } from '../support/dependencies';
import { settle } from '../support/quiescence';
import { countFromItems, readRecountedCounts } from '../../lib/store/recount';
import { injectAwsFaults, type AwsCall, type FaultInjector, type FaultPlan } from '../support/aws-faults';
import type { ApiClient, ApiResult } from '../support/api-client';
import { startHttpTarget, type HttpTarget } from '../support/http-target';
import { startService, type TestService } from '../support/runtime';
import { alertTo, delivered, pagedPeople, person, sentFor, team, waitFor, type Person, type Team } from '../escalation/support';
import { signSns, startSnsStub, type SnsStub } from '../integrations/sns-support';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:oncall-inbound-sms';
const EVENTS = ['alert.acknowledged', 'alert.resolved', 'alert.rejected'];

let service: TestService;
let admin: ApiClient;
let accountId: string;
let sns: SnsStub;
let target: HttpTarget;
let webhookPath: string;
let faults: FaultInjector | null = null;
// Layer 1 pages a, b and c at once; layer 2 is d. Layers last an hour: nothing times out meanwhile.
// s is paged alone, by SMS (at most one SMS a minute goes to a person: s gets one).
let a: Person, b: Person, c: Person, d: Person, s: Person;
let squad: Team;

beforeAll(async () => {
  sns = await startSnsStub();
  target = await startHttpTarget();
  service = await startService({ env: { ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true', SMS_INBOUND_TOPIC_ARN: TOPIC } });
  admin = service.admin;
  [a, b, c, d] = [await person(admin), await person(admin), await person(admin), await person(admin)];
  s = await person(admin, { sms: true, push: false, email: false });
  accountId = (await admin.get(`/api/v4/account_users/${a.id}`)).body.account_id;
  squad = await team(admin, { layers: [[a.id, b.id, c.id], [d.id]], timeouts: [60, 60] });
  const types = await admin.get('/api/v4/integration_types?limit=100');
  webhookPath = `/events-${randomUUID()}`;
  const hook = await admin.post('/api/v4/integrations', {
    name: 'events',
    urgency: 'low',
    integration_type_id: types.body.data.find((t: { slug: string }) => t.slug === 'outgoing_webhook').id,
    options: { url: `${target.url}${webhookPath}`, events: EVENTS },
  });
  expect(hook.status, hook.text).toBe(201);
});

afterAll(async () => {
  faults?.stop();
  await service?.stop();
  await target?.close();
  await sns?.close();
});

/** Faults from now until the end of `run` (the service's clients exist once it has started). */
async function underFaults<T>(plan: FaultPlan, run: () => Promise<T>): Promise<{ result: T; injected: FaultInjector['injected'] }> {
  faults = injectAwsFaults(plan);
  try {
    return { result: await run(), injected: faults.injected };
  } finally {
    faults.stop();
    faults = null;
  }
}

/** The conditional UpdateItem of a status transition (lib/alerts/store.ts changeStatus). */
const statusWrite = (call: AwsCall) =>
  call.operation === 'UpdateItem' &&
  typeof call.input.ConditionExpression === 'string' &&
  call.input.ConditionExpression.includes('#status IN');
/** The conditional Put of an escalation step (lib/escalation/store.ts commitEscalation). */
const escalationCommit = (call: AwsCall) =>
  call.operation === 'PutItem' && JSON.stringify(call.input.Item ?? {}).includes('"committed_by"');
/** The conditional Put that creates an alert (attribute_not_exists, its partition A#<acc>#ALERT). */
const alertInsert = (call: AwsCall) =>
  call.operation === 'PutItem' &&
  call.input.ConditionExpression === 'attribute_not_exists(pk)' &&
  /"pk":\{"S":"A#[^"#]+#ALERT"\}/.test(JSON.stringify(call.input.Item ?? {}));
/** A counter ADD (lib/store/counters.ts adjustFields). */
const counterAdd = (call: AwsCall) =>
  call.operation === 'UpdateItem' && typeof call.input.UpdateExpression === 'string' && call.input.UpdateExpression.startsWith('ADD ');

/** Alerts for the team, each with a, b and c paged (their workflows open). */
async function pagedAlerts(count: number) {
  const alerts = [];
  for (let i = 0; i < count; i++) alerts.push(await alertTo(admin, { teams: [squad.id] }));
  const sent = (n: { template: string; status: string }) => n.template === 'alert_alert' && n.status === 'sent';
  for (const alert of alerts) await sentFor(admin, alert.id, (all) => all.filter(sent).length === 6);
  return alerts;
}

interface Entry {
  action: string;
  actor: { type: string; id: string | null };
}

async function timelineOf(prefixId: string): Promise<Entry[]> {
  const res = await admin.get(`/log?owner_id=${prefixId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { data: Entry }[]).map((log) => log.data);
}

const entriesOf = (timeline: Entry[], action: string, who?: Person) =>
  timeline.filter((e) => e.action === action && (who === undefined || e.actor.id === `usr_${who.userId}`)).length;

/** The service at rest (test/support/quiescence.ts), and nothing in a dead-letter queue. */
async function atRest(): Promise<void> {
  await settle(service);
  const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    for (const [name, queue] of Object.entries(service.runtime.queues)) {
      const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
      expect(
        (dead.Messages ?? []).map((m) => m.Body),
        `dead letters of ${name}`,
      ).toEqual([]);
    }
  } finally {
    sqs.destroy();
  }
}

/** The alert counters, the log counters and the created_at buckets agree with the items they count. */
async function expectExactCounters(): Promise<void> {
  const nonZero = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));
  for (const type of [typeOf('alert'), typeOf('log')]) {
    const [stored, counted] = await Promise.all([readRecountedCounts(accountId, type), countFromItems(accountId, type)]);
    expect(nonZero(stored), `${type} counters`).toEqual(counted);
  }
  const recounted = await recountCreatedBuckets(accountId, { settleMs: 200 });
  expect(recounted.status, JSON.stringify(recounted.corrections)).toBe('exact');
}

/** The distinct events (X-Webhook-Id) the webhook received for an alert, per type. */
function eventsFor(prefixId: string): Record<string, number> {
  const ids = new Map<string, Set<string>>();
  for (const request of target.received.filter((r) => r.url === webhookPath)) {
    const body = JSON.parse(request.body) as { type: string; data: { id: string } };
    if (body.data.id !== prefixId) continue;
    if (!ids.has(body.type)) ids.set(body.type, new Set());
    ids.get(body.type)!.add(String(request.headers['x-webhook-id']));
  }
  return Object.fromEntries([...ids].map(([type, set]) => [type, set.size]));
}

/** Waits until the webhook has had as many events of each type for the alert as its timeline has entries. */
async function eventsArrived(prefixId: string, timeline: Entry[]): Promise<void> {
  const wanted = Object.fromEntries(
    EVENTS.map((event) => [event, entriesOf(timeline, event.slice('alert.'.length))] as const).filter(([, n]) => n > 0),
  );
  await waitFor(
    async () => eventsFor(prefixId),
    (seen) => Object.entries(wanted).every(([event, n]) => (seen[event] ?? 0) >= n),
  );
}

describe('a write that applied but whose answer was lost', () => {
  it('acknowledge, resolve and archive on both interfaces are answered 200, each written, logged and published once', async () => {
    const [v4, earlier] = await pagedAlerts(2);
    const { result, injected } = await underFaults({ rate: 1, kinds: ['lost'], only: statusWrite }, async () => ({
      acknowledged: await a.client.post(`/api/v4/alerts/${v4.id}/acknowledge`),
      resolved: await b.client.post(`/api/v4/alerts/${v4.id}/resolve`),
      earlierAcknowledged: await a.client.post(`/alert/${earlier.prefix_id}/acknowledge`),
      earlierResolved: await a.client.post(`/alert/${earlier.prefix_id}/resolve`),
      archived: await a.client.post(`/alert/${earlier.prefix_id}/archive`),
    }));
    // Every one of those writes lost its answer: the SDK retried each, and each retry found its own change.
    expect(injected.filter(statusWrite).length).toBeGreaterThanOrEqual(5);
    expect(result.acknowledged.status, result.acknowledged.text).toBe(200);
    expect(result.acknowledged.body).toMatchObject({ status: 'acknowledged' });
    expect(result.resolved.status, result.resolved.text).toBe(200);
    expect(result.resolved.body).toMatchObject({ status: 'resolved' });
    expect(result.earlierAcknowledged.status, result.earlierAcknowledged.text).toBe(200);
    expect(result.earlierAcknowledged.body).toMatchObject({ status: 'acknowledged', acknowledgedby: `usr_${a.userId}` });
    expect(result.earlierResolved.status, result.earlierResolved.text).toBe(200);
    expect(result.archived.status, result.archived.text).toBe(200);
    expect(result.archived.body).toMatchObject({ status: 'archived', archivedby: `usr_${a.userId}` });

    await atRest();
    const [first, second] = [await timelineOf(v4.prefix_id), await timelineOf(earlier.prefix_id)];
    expect([entriesOf(first, 'acknowledged', a), entriesOf(first, 'resolved', b)]).toEqual([1, 1]);
    expect([entriesOf(second, 'acknowledged', a), entriesOf(second, 'resolved', a), entriesOf(second, 'archived', a)]).toEqual([1, 1, 1]);
    await eventsArrived(v4.prefix_id, first);
    await atRest();
    expect(eventsFor(v4.prefix_id)).toEqual({ 'alert.acknowledged': 1, 'alert.resolved': 1 });
    await expectExactCounters();
  });

  it('a reject whose escalation step lost its answer is answered 200 and moves on once', async () => {
    const [alert] = await pagedAlerts(1);
    const { result, injected } = await underFaults({ rate: 1, kinds: ['lost'], only: escalationCommit }, async () => [
      await a.client.post(`/api/v4/alerts/${alert.id}/reject`),
      await b.client.post(`/alert/${alert.prefix_id}/reject`),
      await c.client.post(`/api/v4/alerts/${alert.id}/reject`),
    ]);
    expect(injected.filter(escalationCommit).length).toBeGreaterThanOrEqual(3);
    for (const res of result) expect(res.status, res.text).toBe(200);
    // The last open workflow of layer 1 closed: layer 2 is paged, once.
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(d.id));
    expect(pagedPeople(sent).sort()).toEqual([a.id, b.id, c.id, d.id].sort());
    await atRest();
    const timeline = await timelineOf(alert.prefix_id);
    expect([entriesOf(timeline, 'rejected', a), entriesOf(timeline, 'rejected', b), entriesOf(timeline, 'rejected', c)]).toEqual([1, 1, 1]);
    expect(entriesOf(timeline, 'escalated')).toBe(2);
    await eventsArrived(alert.prefix_id, timeline);
    await atRest();
    expect(eventsFor(alert.prefix_id)).toEqual({ 'alert.rejected': 3 });
    await expectExactCounters();
  });

  it('a create whose put applied but whose answer was lost is answered 201, with its tiny id, links and counters', async () => {
    const { result, injected } = await underFaults(
      { rate: 1, kinds: ['lost'], only: (call) => alertInsert(call) || counterAdd(call) },
      () => admin.post('/api/v4/alerts', { title: 'Disk full on db-7', urgency: 'high', destination_team_ids: [squad.id] }),
    );
    expect(injected.some(alertInsert)).toBe(true);
    expect(injected.some(counterAdd)).toBe(true);
    expect(result.status, result.text).toBe(201);
    const byTinyId = await admin.get(`/api/v4/alerts/${result.body.tiny_id}`);
    expect(byTinyId.body.id).toBe(result.body.id);
    const ofTeam = await admin.get(`/api/v4/teams/${squad.id}/alerts?limit=100`);
    expect(ofTeam.body.data.map((x: { id: string }) => x.id)).toContain(result.body.id);
    await sentFor(admin, result.body.id, (s) => pagedPeople(s).length === 3);
    await atRest();
    expect(entriesOf(await timelineOf(result.body.prefix_id), 'created')).toBe(1);
    await expectExactCounters();
  });
});

describe('one-click links and SMS replies', () => {
  it('a one-click acknowledge whose write lost its answer shows "acknowledged"; a second click changes nothing', async () => {
    const [alert] = await pagedAlerts(1);
    const link = delivered(
      (m) => m.accountUserId === b.id && m.channel === 'email' && m.template === 'alert_alert' && m.message.includes(`#${alert.tiny_id}`),
    )?.links?.acknowledge;
    expect(link).toBeDefined();
    const path = new URL(link!).pathname;
    const { result } = await underFaults({ rate: 1, kinds: ['lost'], only: statusWrite }, () =>
      service.anonymous.post(path, undefined, { accept: 'application/json' }),
    );
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ status: 200, alert: { status: 'acknowledged' } });
    const again = await service.anonymous.post(path, undefined, { accept: 'application/json' });
    expect(again.status).toBe(409);
    await atRest();
    expect(entriesOf(await timelineOf(alert.prefix_id), 'acknowledged', b)).toBe(1);
    await expectExactCounters();
  });

  it('an SMS reply whose write lost its answer is texted back "acknowledged"; SNS delivering it again changes nothing', async () => {
    const alert = await alertTo(admin, { users: [s.id] });
    const phone = (await admin.get(`/api/v4/account_users/${s.id}`)).body.user.phones[0].phone as string;
    await sentFor(admin, alert.id, (sent) => sent.some((n) => n.channel === 'sms' && n.account_user_id === s.id && n.status === 'sent'));
    const message = signSns({
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Message: JSON.stringify({ originationNumber: phone, messageBody: `A ${alert.tiny_id}`, inboundMessageId: randomUUID() }),
      Timestamp: new Date().toISOString(),
    });
    const post = () => service.anonymous.post('/public/sms/inbound', message, { 'content-type': 'text/plain; charset=UTF-8' });
    const since = outboxMessages().length;
    const { result } = await underFaults({ rate: 1, kinds: ['lost'], only: statusWrite }, post);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ received: 'sms', outcome: 'acknowledged' });
    const texted = outboxMessages()
      .slice(since)
      .filter((m) => m.to === phone && m.template === 'sms_reply');
    expect(texted.map((m) => m.message)).toEqual([expect.stringMatching(new RegExp(`Alert #${alert.tiny_id} acknowledged`))]);
    const redelivered = await post();
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.outcome).not.toBe('refused');
    await atRest();
    expect(entriesOf(await timelineOf(alert.prefix_id), 'acknowledged')).toBe(1);
    await expectExactCounters();
  });
});

describe('the same idempotency key twice (a redelivered Slack interaction)', () => {
  /** What a Slack interaction handler asks for: the person it acts as, v4's rules, its own key. */
  const slackClick = (who: Person) => ({
    actor: { type: 'AccountUser' as const, accountUserId: who.id, userId: who.userId },
    rules: 'v4' as const,
    idempotencyKey: `slack:T0001:${Date.now()}.${randomUUID().slice(0, 6)}`,
  });

  it('acknowledges once and answers the alert as that acknowledgement left it, even once the alert is open again', async () => {
    const [alert] = await pagedAlerts(1);
    const request = slackClick(c);
    // One after the other, as Slack delivers an interaction again (moto applies two concurrent
    // conditional writes of one item both; DynamoDB and dynalite never do).
    const first = await acknowledgeAlert(accountId, alert.id, request);
    const second = await acknowledgeAlert(accountId, alert.id, request);
    expect([first.status, second.status]).toEqual(['acknowledged', 'acknowledged']);
    // A hand-off opens it again; the same interaction delivered once more still acknowledges nothing.
    expect((await admin.post(`/alert/${alert.prefix_id}/handoff`, { to: `usr_${d.userId}` })).status).toBe(200);
    const late = await acknowledgeAlert(accountId, alert.id, request);
    expect(late.status).toBe('acknowledged');
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await atRest();
    const timeline = await timelineOf(alert.prefix_id);
    expect(entriesOf(timeline, 'acknowledged')).toBe(1);
    await eventsArrived(alert.prefix_id, timeline);
    await atRest();
    expect(eventsFor(alert.prefix_id)['alert.acknowledged']).toBe(1);
    await expectExactCounters();
  });

  it('rejects once', async () => {
    const [alert] = await pagedAlerts(1);
    const request = slackClick(a);
    const first = await rejectAlert(accountId, alert.id, request);
    const again = await rejectAlert(accountId, alert.id, request);
    expect([first.status, again.status]).toEqual(['open', 'open']);
    // Another key of the same person is another request: a has no open workflow any more.
    await expect(rejectAlert(accountId, alert.id, { ...request, idempotencyKey: `${request.idempotencyKey}1` })).rejects.toMatchObject({
      status: 409,
    });
    await atRest();
    expect(entriesOf(await timelineOf(alert.prefix_id), 'rejected', a)).toBe(1);
    await expectExactCounters();
  });
});

describe('under 15 % faults (throttled, failed, applied with the answer lost) on every DynamoDB and SQS call', () => {
  it('many acknowledges, resolves and rejects each get a true answer; one entry and one event per transition; exact counters', async () => {
    type Scenario = 'ack' | 'resolve' | 'ack-race' | 'reject' | 'reject-twice' | 'ack-then-resolve';
    const scenarios: Scenario[] = ['ack', 'resolve', 'ack-race', 'reject', 'reject-twice', 'ack-then-resolve'];
    const alerts = await pagedAlerts(scenarios.length * 5);
    interface Asked {
      alert: (typeof alerts)[number];
      who: Person;
      action: 'acknowledge' | 'resolve' | 'reject';
      res: ApiResult;
    }
    const asked: Asked[] = [];
    const act = async (alert: Asked['alert'], who: Person, action: Asked['action'], earlier: boolean) => {
      const res = earlier
        ? await who.client.post(`/alert/${alert.prefix_id}/${action}`)
        : await who.client.post(`/api/v4/alerts/${alert.id}/${action}`);
      asked.push({ alert, who, action, res });
    };
    // At once; on moto one after the other: moto may apply two concurrent conditional writes of one
    // item both (the 50-acknowledges race of alerts-transitions.test.ts is skipped there too).
    const together = async (first: () => Promise<void>, second: () => Promise<void>) => {
      if (service.external) await first().then(second);
      else await Promise.all([first(), second()]);
    };
    const run = (alert: Asked['alert'], scenario: Scenario): Promise<unknown> => {
      switch (scenario) {
        case 'ack':
          return act(alert, a, 'acknowledge', false);
        case 'resolve':
          return act(alert, a, 'resolve', false);
        case 'ack-race':
          return together(
            () => act(alert, a, 'acknowledge', false),
            () => act(alert, b, 'acknowledge', true),
          );
        case 'reject':
          return act(alert, a, 'reject', false);
        case 'reject-twice':
          return together(
            () => act(alert, b, 'reject', false),
            () => act(alert, b, 'reject', true),
          );
        case 'ack-then-resolve':
          return act(alert, c, 'acknowledge', true).then(() => act(alert, b, 'resolve', false));
      }
    };
    // In waves of three alerts: a reject over HTTP waits (at most 8 s) for the escalation worker to
    // send what an earlier step of the alert left it (the notes to the others it paged), and 30 at
    // once keep the worker of this 2-core machine (and moto) busier than that.
    const { injected } = await underFaults({ rate: 0.15 }, async () => {
      for (let wave = 0; wave < alerts.length; wave += 3) {
        await Promise.all([0, 1, 2].map((i) => run(alerts[wave + i], scenarios[(wave + i) % scenarios.length])));
      }
    });
    expect(injected.length).toBeGreaterThan(20);

    for (const { res } of asked) expect([200, 409], `${res.status} ${res.text}`).toContain(res.status);
    await atRest();
    const past = { acknowledge: 'acknowledged', resolve: 'resolved', reject: 'rejected' } as const;
    for (const [i, alert] of alerts.entries()) {
      const timeline = await timelineOf(alert.prefix_id);
      const mine = asked.filter((x) => x.alert === alert);
      // One entry per 200, by whom and of what it says; a 409 wrote nothing.
      for (const who of [a, b, c]) {
        for (const action of ['acknowledge', 'resolve', 'reject'] as const) {
          const ok = mine.filter((x) => x.who === who && x.action === action && x.res.status === 200).length;
          expect(entriesOf(timeline, past[action], who), `${scenarios[i % scenarios.length]}: ${action} by ${who.name}`).toBe(ok);
        }
      }
      // Two who race for one change: exactly one of them makes it.
      const scenario = scenarios[i % scenarios.length];
      if (scenario === 'ack-race' || scenario === 'reject-twice') expect(mine.filter((x) => x.res.status === 200)).toHaveLength(1);
      // A 409 only where somebody else's change came first.
      for (const refused of mine.filter((x) => x.res.status === 409)) {
        const message = (refused.res.body as { errors: { message: string }[] }).errors[0].message;
        if (refused.action === 'acknowledge') {
          expect(message).toMatch(/Cannot acknowledge an alert that is acknowledged/);
          const other = mine.find((x) => x !== refused && x.action === 'acknowledge');
          expect(other?.res.status).toBe(200);
          expect(other?.who).not.toBe(refused.who);
        } else {
          expect(refused.action).toBe('reject');
          expect(message).toMatch(/no open notification workflow|closed meanwhile/);
          expect(mine.filter((x) => x.action === 'reject' && x.res.status === 200)).toHaveLength(1);
        }
      }
      const status = (await admin.get(`/api/v4/alerts/${alert.id}`)).body.status;
      expect(status).toBe(
        {
          ack: 'acknowledged',
          resolve: 'resolved',
          'ack-race': 'acknowledged',
          reject: 'open',
          'reject-twice': 'open',
          'ack-then-resolve': 'resolved',
        }[scenarios[i % scenarios.length]],
      );
      await eventsArrived(alert.prefix_id, timeline);
    }
    await atRest();
    for (const alert of alerts) {
      const timeline = await timelineOf(alert.prefix_id);
      const wanted = Object.fromEntries(
        EVENTS.map((event) => [event, entriesOf(timeline, event.slice('alert.'.length))] as const).filter(([, n]) => n > 0),
      );
      expect(eventsFor(alert.prefix_id)).toEqual(wanted);
    }
    await expectExactCounters();
  }, 180_000);
});
