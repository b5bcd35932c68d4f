// Delivery receipts (docs/api.md#delivery-receipts): SES and End User Messaging publish what became
// of each message to the delivery topic, and SNS delivers it to POST /public/delivery/sns. Messages
// go out through the real SES v2 and End User Messaging clients to the AWS stand-in (which answers
// each with a MessageId); the events are AWS's documented shapes (test/fixtures/delivery), wrapped
// in SNS Notifications signed with the test key, whose certificate the SNS stand-in serves.
// @moto: receipts by conditional writes (the first final one wins, two at once) and their pointer items.
import { randomUUID } from 'node:crypto';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import type { AwsMessagingStub } from '../support/aws-messaging-stub';
import {
  DELIVERY_TOPIC,
  deliveryEvent,
  postReceipt,
  snsDelivery,
  startDeliveryService,
  type DeliveryService,
  type DeliveryFixture,
} from '../notify/delivery-events';
import type { TestService } from '../support/runtime';
import { person } from '../escalation/support';
import { makeSnsUnreachable, signSns, SUBSCRIPTION_ARN, type SnsStub } from '../integrations/sns-support';

let delivery: DeliveryService;
let aws: AwsMessagingStub;
let sns: SnsStub;
let service: TestService;
let admin: ApiClient;

beforeAll(async () => {
  delivery = await startDeliveryService();
  ({ aws, sns, service } = delivery);
  admin = service.admin;
});

afterAll(async () => {
  await delivery?.stop();
});

type Channel = 'email' | 'sms' | 'voice';

/** A message that went out through its provider: a test notification to a new person. */
async function sentMessage(channel: Channel) {
  const p = await person(admin, { sms: true });
  const before = aws.calls.length;
  const res = await admin.post(`/api/v4/account_users/${p.id}/test_notification`, { channel });
  expect(res.status, res.text).toBe(202);
  const call = aws.calls.slice(before).find((c) => c.messageId !== null)!;
  expect(res.body).toMatchObject({ status: 'sent', template: 'test', channel, provider_message_id: call.messageId });
  return { id: res.body.id as string, messageId: call.messageId! };
}

const read = async (id: string) => (await admin.get(`/api/v4/notifications/${id}`)).body;
const readEarlier = async (id: string) => (await admin.get(`/notification/ntf_${id}`)).body;

async function receive(body: unknown, expected = 200) {
  const res = await postReceipt(service.anonymous, body);
  expect(res.status, res.text).toBe(expected);
  return res.body;
}

describe('each event type sets the status', () => {
  type Case = {
    event: string;
    channel: Channel;
    fixture: DeliveryFixture;
    changes?: Record<string, unknown>;
    status: 'delivered' | 'failed' | 'sent';
  };
  const eum = (event: string, channel: 'sms' | 'voice', status: Case['status'], more: Record<string, unknown> = {}): Case => ({
    event,
    channel,
    fixture: channel === 'sms' ? 'eum-text' : 'eum-voice',
    changes: { eventType: event, messageStatus: event.replace(/^(TEXT|VOICE)_/, ''), ...more },
    status,
  });
  it.each<Case>([
    { event: 'SES Delivery', channel: 'email', fixture: 'ses-delivery', status: 'delivered' },
    { event: 'SES Bounce (Permanent)', channel: 'email', fixture: 'ses-bounce-permanent', status: 'failed' },
    { event: 'SES Complaint', channel: 'email', fixture: 'ses-complaint', status: 'failed' },
    { event: 'SES Reject', channel: 'email', fixture: 'ses-reject', status: 'failed' },
    { event: 'SES Rendering Failure', channel: 'email', fixture: 'ses-rendering-failure', status: 'failed' },
    {
      event: 'SES RenderingFailure',
      channel: 'email',
      fixture: 'ses-rendering-failure',
      changes: { eventType: 'RenderingFailure' },
      status: 'failed',
    },
    { event: 'SES Bounce (Transient)', channel: 'email', fixture: 'ses-bounce-transient', status: 'sent' },
    { event: 'SES Send', channel: 'email', fixture: 'ses-send', status: 'sent' },
    { event: 'SES DeliveryDelay', channel: 'email', fixture: 'ses-delivery-delay', status: 'sent' },
    eum('TEXT_DELIVERED', 'sms', 'delivered'),
    eum('VOICE_COMPLETED', 'voice', 'delivered'),
    ...[
      'TEXT_BLOCKED',
      'TEXT_CARRIER_UNREACHABLE',
      'TEXT_INVALID',
      'TEXT_UNREACHABLE',
      'TEXT_TTL_EXPIRED',
      'TEXT_CARRIER_BLOCKED',
      'TEXT_SPAM',
    ].map((event) => eum(event, 'sms', 'failed')),
    ...['VOICE_FAILED', 'VOICE_NO_ANSWER', 'VOICE_BUSY'].map((event) => eum(event, 'voice', 'failed')),
    eum('TEXT_SUCCESSFUL', 'sms', 'sent'),
    eum('TEXT_PENDING', 'sms', 'sent', { isFinal: false }),
    eum('VOICE_RINGING', 'voice', 'sent', { isFinal: false }),
  ])('$event → $status', async ({ channel, fixture, changes, status }) => {
    const message = await sentMessage(channel);
    const event = deliveryEvent(fixture, message.messageId, changes);
    const answer = await receive(snsDelivery(event));
    expect(answer).toEqual({ received: 'receipt', outcome: status === 'sent' ? 'recorded' : status });

    const v4 = await read(message.id);
    const eventType = event.eventType as string;
    expect(v4).toMatchObject({ status, provider_status: eventType, provider_message_id: message.messageId });
    const earlier = await readEarlier(message.id);
    expect(earlier).toMatchObject({ status, provider_status: eventType, thirdparty_id: message.messageId });
    if (status === 'delivered') {
      // When the provider says it happened: SES's delivery timestamp, End User Messaging's eventTimestamp.
      const at =
        channel === 'email' ? (event.delivery as { timestamp: string }).timestamp : new Date(event.eventTimestamp as number).toISOString();
      expect(v4.delivered_at).toBe(at);
      expect(earlier.delivered).toBe(Math.floor(Date.parse(at) / 1000));
    } else {
      expect(v4.delivered_at).toBeNull();
      expect(earlier.delivered).toBeNull();
    }
    if (status === 'failed')
      expect(earlier.err.at(-1)).toMatch(channel === 'email' ? /^SES/ : new RegExp(`^End User Messaging: ${eventType}`));
    else expect(earlier.err).toEqual([]);
  });

  it('names why a bounce failed: SES’s diagnostic', async () => {
    const message = await sentMessage('email');
    await receive(snsDelivery(deliveryEvent('ses-bounce-permanent', message.messageId)));
    expect((await readEarlier(message.id)).err).toEqual([
      'SES: the message bounced (Permanent, General): smtp; 550 5.1.1 <ann@example.net>: Recipient address rejected: User unknown',
    ]);
  });
});

describe('delivered and failed are final', () => {
  it(
    'the first final event wins: a bounce after the delivery changes nothing, nor does a delivery after a failure',
    { tags: ['moto'] },
    async () => {
      const delivered = await sentMessage('email');
      expect((await receive(snsDelivery(deliveryEvent('ses-delivery', delivered.messageId)))).outcome).toBe('delivered');
      const before = await read(delivered.id);
      expect((await receive(snsDelivery(deliveryEvent('ses-bounce-permanent', delivered.messageId)))).outcome).toBe('already_final');
      expect((await receive(snsDelivery(deliveryEvent('ses-send', delivered.messageId)))).outcome).toBe('already_final');
      expect(await read(delivered.id)).toEqual(before);

      const failed = await sentMessage('sms');
      const blocked = deliveryEvent('eum-text', failed.messageId, { eventType: 'TEXT_BLOCKED' });
      expect((await receive(snsDelivery(blocked))).outcome).toBe('failed');
      const after = await read(failed.id);
      expect((await receive(snsDelivery(deliveryEvent('eum-text', failed.messageId)))).outcome).toBe('already_final');
      expect(await read(failed.id)).toEqual(after);
      expect(after).toMatchObject({ status: 'failed', provider_status: 'TEXT_BLOCKED' });
    },
  );

  it('the same receipt delivered twice by SNS changes nothing the second time', { tags: ['moto'] }, async () => {
    const message = await sentMessage('voice');
    const body = snsDelivery(deliveryEvent('eum-voice', message.messageId));
    expect((await receive(body)).outcome).toBe('delivered');
    const once = await read(message.id);
    expect((await receive(body)).outcome).toBe('already_final');
    expect(await read(message.id)).toEqual(once);
  });

  it('two final receipts at once: exactly one wins, whole', { tags: ['moto'] }, async () => {
    const message = await sentMessage('email');
    const answers = await Promise.all([
      receive(snsDelivery(deliveryEvent('ses-delivery', message.messageId))),
      receive(snsDelivery(deliveryEvent('ses-complaint', message.messageId))),
    ]);
    const outcomes = answers.map((a) => a.outcome).sort();
    expect(outcomes[0]).toBe('already_final');
    const winner = outcomes[1] as 'delivered' | 'failed';
    const v4 = await read(message.id);
    expect(v4).toMatchObject({ status: winner, provider_status: winner === 'delivered' ? 'Delivery' : 'Complaint' });
    expect(v4.delivered_at === null).toBe(winner === 'failed');
  });
});

describe('what is not a receipt of ours', () => {
  it('an unknown message id is ignored with 200', { tags: ['moto'] }, async () => {
    const message = await sentMessage('sms');
    const before = await read(message.id);
    expect(await receive(snsDelivery(deliveryEvent('eum-text', `never-sent-${randomUUID()}`)))).toEqual({
      received: 'receipt',
      outcome: 'unknown_message',
    });
    expect(await read(message.id)).toEqual(before);
  });

  it('a bad signature, another topic, a missing signature or a foreign certificate are refused (403) and change nothing', async () => {
    const message = await sentMessage('email');
    const before = await read(message.id);
    const event = deliveryEvent('ses-bounce-permanent', message.messageId);
    const tampered = { ...snsDelivery(event), Message: JSON.stringify({ ...event, eventType: 'Complaint' }) };
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const unsigned = { ...snsDelivery(event) };
    delete unsigned.Signature;
    for (const body of [
      tampered,
      snsDelivery(event, { topic: 'arn:aws:sns:us-east-1:999999999999:someone-elses-topic' }),
      snsDelivery(event, { key: stranger }),
      unsigned,
      { ...snsDelivery(event), SigningCertURL: 'https://evil.example.com/cert.pem' },
    ]) {
      const res = await postReceipt(service.anonymous, body);
      expect(res.status, res.text).toBe(403);
      expect(res.body.errors[0].message).toMatch(/SNS|topic/);
    }
    expect(await read(message.id)).toEqual(before);
  });

  it('hostile bodies get a 4xx, never a 5xx, and change nothing', async () => {
    const message = await sentMessage('email');
    const before = await read(message.id);
    const cases: [unknown, number][] = [
      ['', 403],
      ['{not json', 403],
      ['[]', 403],
      [{ Type: 'Notification' }, 403],
      [{ Type: 'Unknown', Message: 'x' }, 403],
      ['x'.repeat(300 * 1024), 413],
      // Signed by the topic, but the Message is no event we read.
      [snsDelivery('not json at all'), 400],
      [snsDelivery(JSON.stringify([1, 2])), 200],
      [snsDelivery({ eventType: 'Delivery', mail: { messageId: 'x'.repeat(5_000) } }), 200],
      [snsDelivery({ eventType: 'TEXT_DELIVERED', messageId: { $ne: null } }), 200],
      [snsDelivery({ eventType: 'Delivery', mail: { messageId: message.messageId }, delivery: { timestamp: 'yesterday' } }), 200],
    ];
    for (const [body, status] of cases) {
      const res = await postReceipt(service.anonymous, body);
      expect(res.status, `${JSON.stringify(body).slice(0, 80)}: ${res.text}`).toBe(status);
      if (status >= 400) expect(res.body.errors[0].message).toEqual(expect.any(String));
    }
    // The last one was a real delivery, only its time unreadable: it is delivered at receipt time.
    const after = await read(message.id);
    expect(after).toMatchObject({ status: 'delivered', provider_status: 'Delivery' });
    expect(Date.parse(after.delivered_at)).toBeGreaterThanOrEqual(Date.parse(before.sent_at));
  });

  it("confirms the delivery topic's subscription", async () => {
    const before = sns.requests.length;
    const body = signSns({
      Type: 'SubscriptionConfirmation',
      MessageId: randomUUID(),
      Token: 'token-123',
      TopicArn: DELIVERY_TOPIC,
      Message: 'You have chosen to subscribe to the topic.',
      SubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${DELIVERY_TOPIC}&Token=token-123`,
      Timestamp: new Date().toISOString(),
    });
    expect(await receive(body)).toEqual({ received: 'subscription_confirmation', confirmed: true });
    expect(sns.requests.slice(before).some((r) => r.includes('Action=ConfirmSubscription'))).toBe(true);
    expect(SUBSCRIPTION_ARN).toMatch(/^arn:aws:sns:/);
  });
});

describe('a signing certificate out of reach', () => {
  it('is judged as the inbound integrations judge it: without SNS_SIGNATURE_REQUIRED the receipt is read, unverified', async () => {
    const message = await sentMessage('sms');
    const unreachable = await makeSnsUnreachable();
    try {
      const answer = await receive(snsDelivery(deliveryEvent('eum-text', message.messageId)));
      expect(answer).toEqual({ received: 'receipt', outcome: 'delivered' });
      expect(unreachable.requests.some((r) => r.endsWith('.pem'))).toBe(true);
      // A message that names a certificate off the SNS hosts is still refused before any fetch.
      const foreign = { ...snsDelivery(deliveryEvent('eum-text', message.messageId)), SigningCertURL: 'https://example.com/x.pem' };
      expect((await postReceipt(service.anonymous, foreign)).status).toBe(403);
    } finally {
      unreachable.restore();
    }
  });
});
