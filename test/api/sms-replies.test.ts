// Replies to pages by SMS (issue 12): End User Messaging's two-way SMS publishes inbound messages to
// an SNS topic, which delivers them to POST /public/sms/inbound. Messages are signed with the test
// key and the certificate is served by the local SNS stand-in (the ingest side's verification runs
// as it is); the SMS sent back go to the AWS stand-in through the real End User Messaging client.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { startAwsMessagingStub, type AwsMessagingStub } from '../support/aws-messaging-stub';
import { startService, type TestService } from '../support/runtime';
import { alertTo, pagedPeople, person, sentFor, team, type Person } from '../escalation/support';
import { signSns, startSnsStub, type SnsStub } from '../integrations/sns-support';
import { browserSubscription } from '../support/push-service';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:oncall-inbound-sms';
const OUR_NUMBER = '+18005550199';

let aws: AwsMessagingStub;
let sns: SnsStub;
let service: TestService;
let admin: ApiClient;

beforeAll(async () => {
  aws = await startAwsMessagingStub();
  sns = await startSnsStub();
  service = await startService({
    env: {
      OUTBOX: 'none',
      // A person paged alone is dropped after 5 minutes: 5 s here, time enough to answer.
      TIME_SCALE: '60',
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: aws.url,
      SMS_ORIGINATION_IDENTITY: OUR_NUMBER,
      SMS_INBOUND_TOPIC_ARN: TOPIC,
    },
  });
  admin = service.admin;
});

afterAll(async () => {
  await service?.stop();
  await sns?.close();
  await aws?.close();
  delete process.env.AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2;
});

function inbound(from: string, body: string, topic = TOPIC) {
  return signSns({
    Type: 'Notification',
    MessageId: randomUUID(),
    TopicArn: topic,
    Message: JSON.stringify({
      originationNumber: from,
      destinationNumber: OUR_NUMBER,
      messageKeyword: 'KEYWORD_123456789012',
      messageBody: body,
      inboundMessageId: randomUUID(),
      previousPublishedMessageId: randomUUID(),
    }),
    Timestamp: new Date().toISOString(),
  });
}

async function reply(from: string, body: string) {
  const res = await service.anonymous.post('/public/sms/inbound', inbound(from, body), { 'content-type': 'text/plain; charset=UTF-8' });
  expect(res.status, res.text).toBe(200);
  return res.body as { received: string; outcome: string };
}

/** The SMS texted back to a number after `since` calls. */
const textsTo = (phone: string, since: number) =>
  aws.calls
    .slice(since)
    .filter(
      (c) =>
        c.operation === 'SendTextMessage' &&
        c.body.DestinationPhoneNumber === phone &&
        (c.body.Context as { template: string }).template === 'sms_reply',
    )
    .map((c) => String(c.body.MessageBody));

async function phoneOf(p: Person): Promise<string> {
  return (await admin.get(`/api/v4/account_users/${p.id}`)).body.user.phones[0].phone;
}

async function smsPaged(alertId: string, accountUserId: string) {
  await sentFor(admin, alertId, (s) => s.some((n) => n.channel === 'sms' && n.account_user_id === accountUserId && n.status !== 'queued'));
}

describe('SMS replies to pages', () => {
  it('"A" acknowledges the only pending page and texts back what was done', async () => {
    const p = await person(admin, { sms: true, email: false, push: false });
    const phone = await phoneOf(p);
    const alert = await alertTo(admin, { users: [p.id] });
    await smsPaged(alert.id, p.id);
    const since = aws.calls.length;
    expect(await reply(phone, ' a ')).toEqual({ received: 'sms', outcome: 'acknowledged' });
    const after = await admin.get(`/api/v4/alerts/${alert.id}`);
    expect(after.body.status).toBe('acknowledged');
    // The earlier interface names who acknowledged: the sender.
    expect((await admin.get(`/alert/${alert.prefix_id}`)).body.acknowledgedby).toBe(`usr_${p.userId}`);
    expect(textsTo(phone, since)).toEqual([expect.stringMatching(new RegExp(`Alert #${alert.tiny_id} acknowledged`))]);
    // Answered: nothing is pending any more.
    expect((await reply(phone, 'A')).outcome).toBe('nothing_pending');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('"R" rejects: the next layer is paged at once', async () => {
    // r is reachable (e-mail): a person with no channel that works would be unreachable, and the alert
    // dropped once r's page failed on each, racing the look at its status below.
    const [q, r] = [await person(admin, { sms: true, email: false, push: false }), await person(admin)];
    const t = await team(admin, { layers: [[q.id], [r.id]], timeouts: [30, 30] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await smsPaged(alert.id, q.id);
    expect((await reply(await phoneOf(q), 'R')).outcome).toBe('rejected');
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(r.id), 5_000);
    expect(pagedPeople(sent)).toEqual([q.id, r.id]);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('with several pages pending, "A" is ambiguous (nothing changes, the ids are texted back) and "A 42" picks one', async () => {
    const p = await person(admin, { sms: true, email: false, push: false });
    const phone = await phoneOf(p);
    const first = await alertTo(admin, { users: [p.id] });
    const second = await alertTo(admin, { users: [p.id] });
    await smsPaged(first.id, p.id);
    await smsPaged(second.id, p.id);
    let since = aws.calls.length;
    expect((await reply(phone, 'A')).outcome).toBe('ambiguous');
    expect(textsTo(phone, since)[0]).toMatch(new RegExp(`#${first.tiny_id}, #${second.tiny_id}`));
    expect((await admin.get(`/api/v4/alerts/${first.id}`)).body.status).toBe('open');
    expect((await admin.get(`/api/v4/alerts/${second.id}`)).body.status).toBe('open');

    expect((await reply(phone, `A ${second.tiny_id}`)).outcome).toBe('acknowledged');
    expect((await admin.get(`/api/v4/alerts/${second.id}`)).body.status).toBe('acknowledged');
    expect((await admin.get(`/api/v4/alerts/${first.id}`)).body.status).toBe('open');

    since = aws.calls.length;
    expect((await reply(phone, 'A 99999')).outcome).toBe('ambiguous');
    expect(textsTo(phone, since)[0]).toMatch(/No alert #99999 is waiting for you/);
    // One left: a bare "A" now means it.
    expect((await reply(phone, 'ack')).outcome).toBe('acknowledged');
    expect((await admin.get(`/api/v4/alerts/${first.id}`)).body.status).toBe('acknowledged');
    for (const a of [first, second]) await admin.post(`/api/v4/alerts/${a.id}/resolve`);
  });

  it('a message that is not understood gets the help text; an unknown number gets a short answer; neither changes anything', async () => {
    const p = await person(admin, { sms: true, email: false, push: false });
    const phone = await phoneOf(p);
    const alert = await alertTo(admin, { users: [p.id] });
    await smsPaged(alert.id, p.id);
    let since = aws.calls.length;
    expect((await reply(phone, 'on my way')).outcome).toBe('not_understood');
    expect(textsTo(phone, since)[0]).toMatch(/Reply A<id> to acknowledge or R<id> to reject.*Waiting: #\d+/);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');

    const stranger = '+447700900123';
    since = aws.calls.length;
    expect((await reply(stranger, 'A')).outcome).toBe('nothing_pending');
    expect(textsTo(stranger, since)).toEqual([expect.stringMatching(/No page is waiting/)]);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it("only the sender's own pages: a page to another person is not answered from this number", async () => {
    const [p, other] = [
      await person(admin, { sms: true, email: false, push: false }),
      await person(admin, { sms: true, email: false, push: false }),
    ];
    const alert = await alertTo(admin, { users: [other.id] });
    await smsPaged(alert.id, other.id);
    expect((await reply(await phoneOf(p), 'A')).outcome).toBe('nothing_pending');
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('the inbound SMS route', () => {
  it('believes only signed messages of the configured topic, and confirms its subscription', async () => {
    const p = await person(admin, { sms: true, email: false, push: false });
    const phone = await phoneOf(p);
    const alert = await alertTo(admin, { users: [p.id] });
    await smsPaged(alert.id, p.id);

    const foreign = await service.anonymous.post('/public/sms/inbound', inbound(phone, 'A', 'arn:aws:sns:us-east-1:999999999999:attacker'));
    expect(foreign.status).toBe(403);
    const tampered = { ...inbound(phone, 'R'), Message: JSON.stringify({ originationNumber: phone, messageBody: 'A' }) };
    expect((await service.anonymous.post('/public/sms/inbound', tampered)).status).toBe(403);
    const unsigned = { ...inbound(phone, 'A'), Signature: undefined };
    expect((await service.anonymous.post('/public/sms/inbound', unsigned)).status).toBe(403);
    expect((await service.anonymous.post('/public/sms/inbound', { hello: 'world' })).status).toBe(403);
    const confirmation = signSns({
      Type: 'SubscriptionConfirmation',
      MessageId: randomUUID(),
      Token: 'token-1',
      TopicArn: TOPIC,
      Message: 'You have chosen to subscribe to the topic.',
      SubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=token-1`,
      Timestamp: new Date().toISOString(),
    });
    const confirmed = await service.anonymous.post('/public/sms/inbound', confirmation);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ received: 'subscription_confirmation', confirmed: true });
    expect(sns.requests.some((r) => r.includes('Action=ConfirmSubscription'))).toBe(true);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('refuses a push endpoint on a metadata address when private targets are not allowed', async () => {
    const p = await person(admin);
    const res = await p.client.post(`/api/v4/account_users/${p.id}/push_subscriptions`, {
      endpoint: 'https://169.254.169.254/latest',
      keys: browserSubscription('https://169.254.169.254/latest').keys,
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/^endpoint must be a push service's address, not a link-local address \(cloud metadata\)/);
  });
});
