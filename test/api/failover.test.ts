// Failover (docs/api.md#failover) through the real local server: a page's message that fails (the
// provider refuses it, no provider or address exists for the channel, or a delivery receipt says
// so) sends the same page at once on the person's next channel not yet tried (their rule's channels
// in order, then sms, voice, push, slack, email among those they can receive), each try its own
// notification of the same workflow; a step whose people cannot be reached on any channel moves on
// at once (timeline: unreachable). The runtime runs without queue pollers: each test drives the
// workers itself and brings the system to rest (every queue drained until nothing moves) before it
// asserts what was, and was not, sent. SES and End User Messaging are the AWS stand-in; push and
// Slack have no provider here (OUTBOX=none), so they fail at once.
// @moto: conditional commits and leases under failover, redelivered failure messages, lost put answers.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { now, timeScale } from '../../lib/clock';
import { getAlert } from '../../lib/alerts/store';
import '../../lib/counters/counted-stores';
import { typeOf } from '../../lib/entities';
import { advanceWithLoader, type EscalationEffect } from '../../lib/escalation/engine';
import { StepInputs } from '../../lib/escalation/inputs';
import { commitEscalation, getEscalation } from '../../lib/escalation/store';
import { countFromItems, readRecountedCounts } from '../../lib/store/recount';
import { LEASE_MS } from '../../lib/escalation/run-step';
import { callOf, onServiceClients } from '../support/aws-calls';
import { injectAwsFaults, type AwsCall } from '../support/aws-faults';
import type { ApiClient } from '../support/api-client';
import type { AwsMessagingStub } from '../support/aws-messaging-stub';
import { testClock } from '../support/dependencies';
import { deliveryEvent, postReceipt, snsDelivery, startDeliveryService, type DeliveryService } from '../notify/delivery-events';
import { drainQueue } from '../support/queues';
import type { TestService } from '../support/runtime';
import { alertTo, notificationsOf, person, team, type Person, type Sent } from '../escalation/support';

let delivery: DeliveryService;
let aws: AwsMessagingStub;
let service: TestService;
let admin: ApiClient;
let accountId: string;

beforeAll(async () => {
  delivery = await startDeliveryService({ pollerConcurrency: 0 });
  ({ aws, service } = delivery);
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
});

afterAll(async () => {
  await delivery?.stop();
});

afterEach(() => {
  for (const operation of ['SendEmail', 'SendTextMessage', 'SendVoiceMessage']) aws.accept(operation);
  testClock.reset();
});

/** Runs the workers over their queues until a whole round finds nothing to do. */
async function rest(): Promise<void> {
  for (let round = 0; round < 50; round++) {
    let handled = 0;
    for (const queue of ['routing', 'escalation', 'webhooks'] as const) {
      const drained = await drainQueue(service, queue);
      expect(drained.failed, `${queue} records failed`).toEqual([]);
      handled += drained.handled;
    }
    if (handled === 0) return;
  }
  throw new Error('the queues never came to rest');
}

const refuse = (operation: string) => aws.refuse(operation, { type: 'MessageRejected', message: 'refused by the test' });

/** The person's notifications of the alert, in the order they were made. */
async function pagesTo(alertId: string, p: Person): Promise<Sent[]> {
  return (await notificationsOf(admin, alertId)).filter((n) => n.account_user_id === p.id);
}

const tries = (sent: Sent[]) => sent.map((n) => [n.channel, n.status]);

async function timeline(prefixId: string): Promise<{ action: string; account_user_ids?: string[] }[]> {
  const res = await admin.get(`/log?owner_id=${prefixId}&limit=100`);
  return (res.body.data as { data: { action: string; account_user_ids?: string[] } }[]).map((entry) => entry.data);
}

async function ruleOf(p: Person, yaml: string): Promise<void> {
  const rule = await admin.post('/api/v4/notification_rules', { name: `Rule of ${p.name}`, rules: yaml });
  expect(rule.status, rule.text).toBe(201);
  const assigned = await admin.put(`/api/v4/account_users/${p.id}`, { notification_rule_id: rule.body.prefix_id });
  expect(assigned.status, assigned.text).toBe(200);
}

describe('a failed message goes out on the next channel at once', () => {
  it("follows the person's rule first (its later step too), then sms, voice, push, slack, email; one try per channel", async () => {
    const p = await person(admin, { sms: true });
    await ruleOf(
      p,
      'rules:\n  - match:\n      always: true\n    actions:\n      - type: notify\n        channels: [email]\n        timeout: 10m\n      - type: notify\n        channels: [voice]\n',
    );
    refuse('SendEmail');
    refuse('SendVoiceMessage');
    const since = aws.calls.length;
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();

    const sent = await pagesTo(alert.id, p);
    // e-mail (the rule's first step) refused → voice (its second step) refused → sms (accepted).
    expect(tries(sent)).toEqual([
      ['email', 'failed'],
      ['voice', 'failed'],
      ['sms', 'sent'],
    ]);
    expect(new Set(sent.map((n) => n.workflow_id)).size).toBe(1);
    expect(sent.every((n) => n.template === 'alert_alert')).toBe(true);
    const toPerson = aws.calls
      .slice(since)
      .filter((c) => c.body.DestinationPhoneNumber === sent[2].to || JSON.stringify(c.body).includes(p.email));
    expect(toPerson.map((c) => c.operation)).toEqual(['SendEmail', 'SendVoiceMessage', 'SendTextMessage']);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it(
    'fails over when a receipt says the message failed, and again on the next failure; a repeated receipt tries nothing twice',
    { tags: ['moto'] },
    async () => {
      const p = await person(admin, { sms: true, email: false, push: false });
      const t = await team(admin, { layers: [[p.id]], timeouts: [60] });
      const alert = await alertTo(admin, { teams: [t.id] });
      await rest();
      const [sms] = await pagesTo(alert.id, p);
      expect(tries([sms])).toEqual([['sms', 'sent']]);
      const smsId = (await admin.get(`/api/v4/notifications/${sms.id}`)).body.provider_message_id as string;

      const blocked = snsDelivery(deliveryEvent('eum-text', smsId, { eventType: 'TEXT_BLOCKED', messageStatus: 'BLOCKED' }));
      expect((await postReceipt(service.anonymous, blocked)).status).toBe(200);
      await rest();
      let sent = await pagesTo(alert.id, p);
      expect(tries(sent)).toEqual([
        ['sms', 'failed'],
        ['voice', 'sent'],
      ]);
      // SNS delivering the same receipt again, and the failure message arriving twice, try nothing more.
      expect((await postReceipt(service.anonymous, blocked)).body.outcome).toBe('already_final');
      await rest();
      expect(await pagesTo(alert.id, p)).toHaveLength(2);

      const voiceId = (await admin.get(`/api/v4/notifications/${sent[1].id}`)).body.provider_message_id as string;
      await postReceipt(service.anonymous, snsDelivery(deliveryEvent('eum-voice', voiceId, { eventType: 'VOICE_NO_ANSWER' })));
      await rest();
      sent = await pagesTo(alert.id, p);
      // No provider for push or Slack here: they fail at once, and the e-mail goes out.
      expect(tries(sent)).toEqual([
        ['sms', 'failed'],
        ['voice', 'failed'],
        ['push', 'failed'],
        ['slack', 'failed'],
        ['email', 'sent'],
      ]);
      expect(new Set(sent.map((n) => n.workflow_id))).toEqual(new Set([sms.workflow_id]));
      await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    },
  );

  it('the failure message delivered again (a queue redelivery) pages nobody twice', { tags: ['moto'] }, async () => {
    const p = await person(admin, { sms: true, email: false, push: false });
    refuse('SendTextMessage');
    const t = await team(admin, { layers: [[p.id]], timeouts: [60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await rest();
    const before = await pagesTo(alert.id, p);
    expect(tries(before)).toEqual([
      ['sms', 'failed'],
      ['voice', 'sent'],
    ]);
    const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
    const failure = { kind: 'delivery_failed', account_id: accountId, alert_id: alert.id, notification_id: before[0].id, due_at: now() };
    for (let i = 0; i < 3; i++) {
      await sqs.send(new SendMessageCommand({ QueueUrl: service.runtime.queues.escalation.url, MessageBody: JSON.stringify(failure) }));
    }
    sqs.destroy();
    await rest();
    expect(await pagesTo(alert.id, p)).toEqual(before);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('stops with the page: after the acknowledgement a late failure sends nothing', async () => {
    const p = await person(admin, { sms: true, email: false, push: false });
    const t = await team(admin, { layers: [[p.id]], timeouts: [60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await rest();
    const [sms] = await pagesTo(alert.id, p);
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    await rest();
    const smsId = (await admin.get(`/api/v4/notifications/${sms.id}`)).body.provider_message_id as string;
    await postReceipt(service.anonymous, snsDelivery(deliveryEvent('eum-text', smsId, { eventType: 'TEXT_UNREACHABLE' })));
    await rest();
    expect(tries(await pagesTo(alert.id, p))).toEqual([['sms', 'failed']]);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('nobody in the step can be reached', () => {
  /** Push, e-mail and no phone: with SES refusing, push and Slack without a provider, nothing reaches them. */
  const unreachablePerson = () => person(admin);

  it('moves to the next layer at once, with an unreachable entry on the timeline', async () => {
    refuse('SendEmail');
    const [a, b] = [await unreachablePerson(), await person(admin, { sms: true, email: false, push: false })];
    const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [60, 60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await rest();

    const toA = tries(await pagesTo(alert.id, a));
    // Push and e-mail go out together (in either order), then Slack, the one channel left.
    expect(toA.slice(0, 2).sort()).toEqual([
      ['email', 'failed'],
      ['push', 'failed'],
    ]);
    expect(toA.slice(2)).toEqual([['slack', 'failed']]);
    // Layer 2 paged without waiting out layer 1's hour (the clock never moved).
    expect(tries(await pagesTo(alert.id, b))).toEqual([['sms', 'sent']]);
    const actions = await timeline(alert.prefix_id);
    expect(actions.map((e) => e.action)).toEqual(['created', 'routed', 'escalated', 'unreachable', 'escalated']);
    expect(actions.find((e) => e.action === 'unreachable')?.account_user_ids).toEqual([a.id]);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('waits out the layer while someone else in it may still be reached', async () => {
    refuse('SendEmail');
    const [a, c, b] = [await unreachablePerson(), await person(admin, { sms: true, email: false, push: false }), await person(admin)];
    const t = await team(admin, { layers: [[a.id, c.id], [b.id]], timeouts: [60, 60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await rest();
    expect(tries(await pagesTo(alert.id, c))).toEqual([['sms', 'sent']]);
    expect(await pagesTo(alert.id, b)).toEqual([]);
    expect((await timeline(alert.prefix_id)).map((e) => e.action)).toEqual(['created', 'routed', 'escalated']);
    expect((await getEscalation(accountId, alert.id)).state?.assignments[0].step?.key).toBe('r0.l0');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('a person paged alone who cannot be reached: the alert drops at once', async () => {
    refuse('SendEmail');
    const a = await unreachablePerson();
    const alert = await alertTo(admin, { users: [a.id] });
    await rest();
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('dropped');
    expect((await timeline(alert.prefix_id)).map((e) => e.action)).toEqual([
      'created',
      'routed',
      'escalated',
      'unreachable',
      'exhausted',
      'dropped',
    ]);
  });
});

describe('a failover step that crashes', () => {
  it('is finished by the next look at the alert: the failover page goes out once, never twice', { tags: ['moto'] }, async () => {
    refuse('SendTextMessage');
    const p = await person(admin, { sms: true, email: false, push: false });
    const t = await team(admin, { layers: [[p.id]], timeouts: [60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    // Routing pages the person; the SMS fails and its failure waits on the escalation queue.
    await drainQueue(service, 'routing');
    const [sms] = await pagesTo(alert.id, p);
    expect(tries([sms])).toEqual([['sms', 'failed']]);

    // What a worker did before dying: the failure advanced and committed with its outbox (the
    // failover page) and a lease, then nothing.
    const stored = await getEscalation(accountId, alert.id);
    const at = now();
    const inputs = new StepInputs(accountId, (await getAlert(accountId, alert.id))!, at, timeScale());
    await inputs.loadTeams([t.id]);
    const event = { type: 'delivery_failed' as const, at, workflowId: sms.workflow_id!, messageId: sms.id, channel: 'sms' };
    const result = await advanceWithLoader(stored.state!, event, inputs.inputs(), (ids) => inputs.loadTeams(ids));
    const failover = result.effects.filter((e: EscalationEffect) => e.type === 'page');
    expect(failover).toEqual([expect.objectContaining({ channels: ['voice'], failover: 1 })]);
    const committed = await commitEscalation(
      accountId,
      alert.id,
      stored.version,
      { state: result.state, deferred: [], outbox: result.effects, lease: { owner: 'crashed-worker', until: at + 100 }, dueAt: at + 200 },
      'crashed-worker',
      at,
    );
    expect(committed).not.toBeNull();

    // Its lease runs out; the failure message (still on the queue) finds the leftover and finishes it.
    testClock.advance(2_000);
    await rest();
    const sent = await pagesTo(alert.id, p);
    expect(tries(sent)).toEqual([
      ['sms', 'failed'],
      ['voice', 'sent'],
    ]);
    expect(aws.calls.filter((c) => c.operation === 'SendVoiceMessage' && c.body.DestinationPhoneNumber === sms.to)).toHaveLength(1);
    expect((await getEscalation(accountId, alert.id)).outbox).toEqual([]);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('a notification whose put applied but whose answer was lost', () => {
  /** The put that records a notification (lib/notify/store.ts insertNotification). */
  const notificationPut = (call: AwsCall) =>
    call.operation === 'PutItem' &&
    (call.input.Item as { pk?: { S?: string } } | undefined)?.pk?.S === `A#${accountId}#${typeOf('notification')}`;

  /** Pages `p` with every notification put losing its first answer (the SDK retries it and finds the item there). */
  async function pageUnderLostPuts(p: Person): Promise<{ alert: { id: string }; lostPuts: number }> {
    const faults = injectAwsFaults({ rate: 1, kinds: ['lost'], only: notificationPut });
    try {
      const alert = await alertTo(admin, { users: [p.id] });
      await rest();
      return { alert, lostPuts: faults.injected.length };
    } finally {
      faults.stop();
    }
  }

  async function expectExactNotificationCounters(): Promise<void> {
    const nonZero = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));
    const type = typeOf('notification');
    const [stored, counted] = await Promise.all([readRecountedCounts(accountId, type), countFromItems(accountId, type)]);
    expect(nonZero(stored)).toEqual(counted);
  }

  const callsTo = (operation: string, phone: string, since: number) =>
    aws.calls.slice(since).filter((c) => c.operation === operation && c.body.DestinationPhoneNumber === phone);

  it('is its own: the page goes out once, recorded once and counted once (not taken for a crash)', async () => {
    // E-mail goes out at once: its put is the claim (`sending`), which a retry must not take for a crash.
    const p = await person(admin, { push: false });
    const since = aws.calls.length;
    const { alert, lostPuts } = await pageUnderLostPuts(p);
    expect(lostPuts).toBe(1);

    const sent = await pagesTo(alert.id, p);
    expect(tries(sent)).toEqual([['email', 'sent']]);
    const emails = aws.calls.slice(since).filter((c) => c.operation === 'SendEmail' && JSON.stringify(c.body).includes(p.email));
    expect(emails).toHaveLength(1);
    await expectExactNotificationCounters();
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('on failover too: the refused SMS and the call (both storm-protected, recorded queued) each recorded and counted once, made once', async () => {
    refuse('SendTextMessage');
    const p = await person(admin, { sms: true, email: false, push: false });
    const since = aws.calls.length;
    const { alert, lostPuts } = await pageUnderLostPuts(p);
    expect(lostPuts).toBe(2);

    const sent = await pagesTo(alert.id, p);
    expect(tries(sent)).toEqual([
      ['sms', 'failed'],
      ['voice', 'sent'],
    ]);
    // Refused by the provider, not an outcome nobody knows.
    expect((await admin.get(`/api/v4/notifications/${sent[0].id}`)).body.provider_status).toBe('failed');
    expect(callsTo('SendTextMessage', sent[0].to, since)).toHaveLength(1);
    expect(callsTo('SendVoiceMessage', sent[0].to, since)).toHaveLength(1);
    await expectExactNotificationCounters();
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('a step whose lease runs short before it sends', () => {
  type Marshalled = Record<string, { S?: string } | undefined>;
  /** A write that takes an escalation's lease: a step's commit holding one, or a take-over of a left outbox. */
  const takesLease = (call: AwsCall) => {
    if (call.service !== 'dynamodb') return false;
    const key = (call.input.Item ?? call.input.Key) as Marshalled | undefined;
    if (!key?.pk?.S?.startsWith(`ESC#${accountId}#`)) return false;
    if (call.operation === 'PutItem') return (call.input.Item as Marshalled).lease_owner !== undefined;
    return call.operation === 'UpdateItem' && String(call.input.UpdateExpression).includes('lease_owner = :me');
  };

  /**
   * The machine stalls right after a carrier takes the lease, the first `times` times: the service's
   * time moves on 4.5 s, past the lease's margin, so that carrier may start no provider call (another
   * could take the lease over mid-call and send the page twice).
   */
  function stallAfterLease(times: number): { stalls: () => number; stop: () => void } {
    let stalled = 0;
    const stop = onServiceClients('stallAfterLease', (service) => (next, context) => async (args) => {
      const answer = await next(args);
      if (stalled < times && takesLease(callOf(service, context, args.input))) {
        stalled += 1;
        testClock.advance(LEASE_MS - 500);
      }
      return answer;
    });
    return { stalls: () => stalled, stop };
  }

  const textsTo = (phone: string, since: number) =>
    aws.calls.slice(since).filter((c) => c.operation === 'SendTextMessage' && c.body.DestinationPhoneNumber === phone);

  it.each([1, 2])(
    'hands the pages it did not start over (%i time(s) in a row): the page goes out once, none is left queued',
    async (times) => {
      const p = await person(admin, { sms: true, email: false, push: false });
      const stall = stallAfterLease(times);
      const since = aws.calls.length;
      let alert: { id: string };
      try {
        alert = await alertTo(admin, { users: [p.id] });
        await rest();
      } finally {
        stall.stop();
      }
      expect(stall.stalls()).toBe(times);
      const sent = await pagesTo(alert.id, p);
      expect(tries(sent)).toEqual([['sms', 'sent']]);
      expect(textsTo(sent[0].to, since)).toHaveLength(1);
      expect((await getEscalation(accountId, alert.id)).outbox).toEqual([]);
      await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    },
  );

  it('a page it handed over and the alert acknowledged meanwhile is cancelled, not left queued', async () => {
    const p = await person(admin, { sms: true, email: false, push: false });
    const stall = stallAfterLease(1);
    const since = aws.calls.length;
    let alert: { id: string };
    try {
      alert = await alertTo(admin, { users: [p.id] });
      // The routing step held its page back and handed it over; the alert is acknowledged before the
      // worker takes the page up (the acknowledgement waits for it, beside the queues coming to rest).
      await drainQueue(service, 'routing');
      const acknowledged = admin.post(`/api/v4/alerts/${alert.id}/acknowledge`);
      while ((await getAlert(accountId, alert.id))?.status !== 'acknowledged') await new Promise((r) => setTimeout(r, 20));
      await rest();
      expect((await acknowledged).status).toBe(200);
      await rest();
    } finally {
      stall.stop();
    }
    expect(stall.stalls()).toBe(1);
    const sent = await pagesTo(alert.id, p);
    expect(sent.map((n) => [n.channel, n.status, n.provider_status])).toEqual([['sms', 'failed', 'cancelled']]);
    expect(textsTo(sent[0].to, since)).toEqual([]);
    expect((await getEscalation(accountId, alert.id)).outbox).toEqual([]);
  });
});
