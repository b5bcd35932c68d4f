// Deployed delivery (issue 12, docs/api.md#escalation-and-notifications): e-mail through SES v2,
// SMS and calls through End User Messaging SMS and Voice v2, push through Web Push, each enabled by
// configuration. The real SDK clients and the real web-push library talk to edge stand-ins: a local
// HTTP server speaking the AWS wire protocols, and a local HTTPS push service that checks VAPID and
// decrypts the payload with the subscription's private key. Refused deliveries are recorded failed
// with the reason, and escalation goes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { startAwsMessagingStub, type AwsMessagingStub } from '../support/aws-messaging-stub';
import {
  browserSubscription,
  checkVapid,
  decryptPush,
  pushServiceAgent,
  startPushService,
  type PushService,
} from '../support/push-service';
import { signupAccount, startService, type TestService } from '../support/runtime';
import { alertTo, pagedPeople, person, sentFor, team } from '../escalation/support';

const SMS_IDENTITY = 'arn:aws:sms-voice:us-east-1:123456789012:phone-number/phone-0123456789abcdef';
const VOICE_IDENTITY = 'arn:aws:sms-voice:us-east-1:123456789012:phone-number/phone-fedcba9876543210';
const ENV_NAMES = ['AWS_ENDPOINT_URL_SESV2', 'AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2'];

let aws: AwsMessagingStub;
let pushService: PushService;
let service: TestService;
let admin: ApiClient;

beforeAll(async () => {
  aws = await startAwsMessagingStub();
  pushService = await startPushService();
  service = await startService({
    dependencies: { pushAgent: pushServiceAgent() },
    env: {
      OUTBOX: 'none',
      TIME_SCALE: '600',
      AWS_ENDPOINT_URL_SESV2: aws.url,
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: aws.url,
      SES_FROM_ADDRESS: 'On-call <oncall@example.com>',
      SES_CONFIGURATION_SET: 'oncall-pages',
      SMS_ORIGINATION_IDENTITY: SMS_IDENTITY,
      VOICE_ORIGINATION_IDENTITY: VOICE_IDENTITY,
      SMS_CONFIGURATION_SET: 'oncall-sms',
      WEB_PUSH_SUBJECT: 'mailto:ops@example.com',
      // The local push service listens on 127.0.0.1, which the SSRF guard refuses otherwise.
      ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true',
    },
  });
  admin = service.admin;
});

afterAll(async () => {
  await service?.stop();
  await aws?.close();
  await pushService?.close();
  for (const name of ENV_NAMES) delete process.env[name];
});

const callsTo = (operation: string, predicate: (body: Record<string, unknown>) => boolean) =>
  aws.calls.filter((call) => call.operation === operation && predicate(call.body));

async function subscribe(client: ApiClient, accountUserId: string, path: string) {
  const browser = browserSubscription(`${pushService.origin}${path}`);
  const res = await client.post(`/api/v4/account_users/${accountUserId}/push_subscriptions`, {
    endpoint: browser.endpoint,
    keys: browser.keys,
    expirationTime: null,
  });
  expect(res.status, res.text).toBe(201);
  return { browser, record: res.body };
}

describe('a page to a person with every channel', () => {
  it('goes out through SES, End User Messaging (SMS and a call) and Web Push, one notification per channel with the provider ids', async () => {
    const p = await person(admin, { sms: true, voice: true });
    const me = await p.client.get(`/api/v4/account_users/${p.id}`);
    const phone = me.body.user.phones[0].phone as string;
    const { browser } = await subscribe(p.client, p.id, `/push/${p.id}`);

    const alert = await alertTo(admin, { users: [p.id] }, 'Disk full on db-1');
    const sent = await sentFor(admin, alert.id, (s) => s.filter((n) => n.template === 'alert_alert' && n.status !== 'queued').length === 4);
    const byChannel = Object.fromEntries(sent.map((n) => [n.channel, n]));
    expect(Object.keys(byChannel).sort()).toEqual(['email', 'push', 'sms', 'voice']);
    for (const n of sent) expect(n.status, `${n.channel}: ${JSON.stringify(n)}`).toBe('sent');

    // E-mail: SES v2 SendEmail from the configured sender, with the configuration set and the notification's tag.
    const [email] = callsTo(
      'SendEmail',
      (b) =>
        (b.Destination as { ToAddresses: string[] }).ToAddresses[0] === p.email &&
        (b.EmailTags as { Name: string; Value: string }[]).some((tag) => tag.Value === 'alert_alert'),
    );
    expect(email.body).toMatchObject({ FromEmailAddress: 'On-call <oncall@example.com>', ConfigurationSetName: 'oncall-pages' });
    const content = (email.body.Content as { Simple: { Subject: { Data: string }; Body: { Text: { Data: string } } } }).Simple;
    expect(content.Subject.Data).toContain('Disk full on db-1');
    expect(content.Body.Text.Data).toContain(`#${alert.tiny_id}`);
    expect(content.Body.Text.Data).toMatch(/\/public\/respond\//);
    expect(email.body.EmailTags).toContainEqual({ Name: 'notification_id', Value: byChannel.email.id });

    // SMS: SendTextMessage from the origination identity, transactional, naming the alert.
    const [sms] = callsTo('SendTextMessage', (b) => b.DestinationPhoneNumber === phone);
    expect(sms.body).toMatchObject({
      OriginationIdentity: SMS_IDENTITY,
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'oncall-sms',
      Context: { notification_id: byChannel.sms.id, template: 'alert_alert' },
    });
    expect(sms.body.MessageBody).toContain(`#${alert.tiny_id}`);
    expect(sms.headers['x-amz-target']).toBe('PinpointSMSVoiceV2.SendTextMessage');

    // Voice: SendVoiceMessage as text to speech, the tiny id read digit by digit, no links.
    const [voice] = callsTo('SendVoiceMessage', (b) => b.DestinationPhoneNumber === phone);
    expect(voice.body).toMatchObject({ OriginationIdentity: VOICE_IDENTITY, MessageBodyTextType: 'TEXT', VoiceId: 'JOANNA' });
    expect(voice.body.MessageBody).toContain('Disk full on db-1');
    expect(voice.body.MessageBody).not.toMatch(/https?:/);

    // Push: one request to the subscription's endpoint, VAPID-signed with the service's public key, decrypted here.
    const receipt = pushService.received.find((r) => r.path === `/push/${p.id}`)!;
    expect(receipt.headers['content-encoding']).toBe('aes128gcm');
    expect(receipt.headers.urgency).toBe('high');
    expect(Number(receipt.headers.ttl)).toBeGreaterThan(0);
    const vapid = checkVapid(String(receipt.headers.authorization), pushService.origin);
    expect(vapid.key).toBe((await p.client.get('/api/v4/web_push')).body.vapid_public_key);
    expect(vapid.claims.sub).toBe('mailto:ops@example.com');
    const payload = JSON.parse(decryptPush(receipt.body, browser));
    expect(payload).toMatchObject({ notification_id: byChannel.push.id, template: 'alert_alert' });
    expect(payload.body).toContain('Disk full on db-1');
    expect(payload.actions.map((a: { action: string }) => a.action)).toEqual(['acknowledge', 'reject']);
    expect(payload.actions[0].url).toMatch(/\/public\/respond\/r1\./);

    // The provider and its message id on each notification (earlier interface: thirdparty_id).
    const earlier = (await admin.get(`/notification?source_id=${alert.prefix_id}&limit=10`)).body.data as Record<string, unknown>[];
    const ids = Object.fromEntries(earlier.map((n) => [n.channel, n]));
    expect(ids.email).toMatchObject({ provider: 'ses', thirdparty_id: email.messageId, provider_status: 'accepted', err: [] });
    expect(ids.sms).toMatchObject({ provider: 'sms-voice-v2', thirdparty_id: sms.messageId });
    expect(ids.voice).toMatchObject({ provider: 'sms-voice-v2', thirdparty_id: voice.messageId });
    expect(ids.push).toMatchObject({ provider: 'web-push', thirdparty_id: expect.stringMatching(/^https:\/\/push\.invalid\/m\//) });
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('a provider that refuses', () => {
  it('records failed with the service reason, and escalation goes on to the next layer', async () => {
    aws.refuse('SendEmail', { type: 'MessageRejected', message: 'Email address is not verified.' });
    try {
      const [a, b] = [await person(admin, { push: false }), await person(admin, { push: false })];
      const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [2, 2] });
      const alert = await alertTo(admin, { teams: [t.id] });
      const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(b.id) && s.every((n) => n.status !== 'queued'));
      expect(pagedPeople(sent)).toEqual([a.id, b.id]);
      const earlier = (await admin.get(`/notification?source_id=${alert.prefix_id}&channel=email&user_id=usr_${a.userId}`)).body.data;
      expect(earlier[0]).toMatchObject({ status: 'failed', provider: 'ses', provider_status: 'failed', sent: null });
      expect(earlier[0].err[0]).toMatch(/SES refused the message \(HTTP 400\): MessageRejected: Email address is not verified/);
      await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    } finally {
      aws.accept('SendEmail');
    }
  });

  it('records a push to a person without any subscription as failed, naming how to register one', async () => {
    const p = await person(admin, { email: false });
    const alert = await alertTo(admin, { users: [p.id] });
    const [push] = await sentFor(admin, alert.id, (s) => s.some((n) => n.channel === 'push' && n.status !== 'queued'));
    expect(push).toMatchObject({ status: 'failed', channel: 'push' });
    const earlier = (await admin.get(`/notification?source_id=${alert.prefix_id}&channel=push`)).body.data;
    expect(earlier[0].err[0]).toMatch(/no push subscription/);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('push subscriptions', () => {
  it('a push service answering 410 removes that subscription; the others still get the page', async () => {
    const p = await person(admin, { email: false });
    await subscribe(p.client, p.id, `/live/${p.id}`);
    await subscribe(p.client, p.id, `/gone/${p.id}`);
    pushService.answer(`/gone/${p.id}`, 410);
    expect((await p.client.get(`/api/v4/account_users/${p.id}/push_subscriptions`)).body.total_count).toBe(2);

    const alert = await alertTo(admin, { users: [p.id] });
    const [push] = await sentFor(admin, alert.id, (s) => s.some((n) => n.channel === 'push' && n.status !== 'queued'));
    expect(push.status).toBe('sent');
    const earlier = (await admin.get(`/notification?source_id=${alert.prefix_id}&channel=push`)).body.data;
    expect(earlier[0].err[0]).toMatch(/accepted by 1 of 2 subscriptions: .*HTTP 410 \(subscription gone: removed\)/);
    const left = (await p.client.get(`/api/v4/account_users/${p.id}/push_subscriptions`)).body;
    expect(left.data.map((s: { endpoint: string }) => new URL(s.endpoint).pathname)).toEqual([`/live/${p.id}`]);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('are registered and removed by the person or an admin, validated field by field, invisible to other accounts', async () => {
    const p = await person(admin);
    const other = await person(admin);
    const path = `/api/v4/account_users/${p.id}/push_subscriptions`;
    const good = browserSubscription(`${pushService.origin}/crud/${p.id}`);

    const bad = async (body: unknown, message: RegExp) => {
      const res = await p.client.post(path, body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe(422);
      expect(res.body.errors[0].message).toMatch(message);
    };
    await bad({ endpoint: 'http://push.example.com/x', keys: good.keys }, /^endpoint must be an https URL/);
    await bad({ endpoint: 'not a url', keys: good.keys }, /^endpoint must be an https URL/);
    await bad({ keys: good.keys }, /^endpoint can't be blank/);
    await bad({ endpoint: good.endpoint }, /^keys can't be blank/);
    await bad(
      { endpoint: good.endpoint, keys: { ...good.keys, p256dh: Buffer.alloc(65, 7).toString('base64url') } },
      /^keys\.p256dh must be a P-256 public key/,
    );
    await bad({ endpoint: good.endpoint, keys: { ...good.keys, auth: 'c2hvcnQ' } }, /^keys\.auth must be 16 bytes/);
    expect((await p.client.get(path)).body.total_count).toBe(0);

    const created = await p.client.post(path, { endpoint: good.endpoint, keys: good.keys, user_agent: 'Firefox' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ account_user_id: p.id, endpoint: good.endpoint, user_agent: 'Firefox', expiration_time: null });
    expect(created.body).not.toHaveProperty('keys');
    // The same endpoint again replaces it (same id), never a second one.
    const again = await p.client.post(path, { endpoint: good.endpoint, keys: good.keys });
    expect(again.body.id).toBe(created.body.id);
    expect((await p.client.get(path)).body.total_count).toBe(1);

    // Another member may not; an admin may; another account sees no such person.
    expect((await other.client.post(path, { endpoint: good.endpoint, keys: good.keys })).status).toBe(403);
    expect((await other.client.get(path)).status).toBe(403);
    expect((await admin.get(path)).body.total_count).toBe(1);
    const foreign = await signupAccount(service, 'Foreign');
    expect((await foreign.client.get(path)).status).toBe(404);
    expect((await foreign.client.post(path, { endpoint: good.endpoint, keys: good.keys })).status).toBe(404);
    expect((await foreign.client.delete(`${path}?endpoint=${encodeURIComponent(good.endpoint)}`)).status).toBe(404);

    expect((await p.client.delete(path)).status).toBe(422);
    expect((await p.client.delete(`${path}?endpoint=${encodeURIComponent(good.endpoint)}`)).status).toBe(204);
    expect((await p.client.delete(`${path}?endpoint=${encodeURIComponent(good.endpoint)}`)).status).toBe(404);
    const byAdmin = await admin.post(path, { endpoint: good.endpoint, keys: good.keys });
    expect(byAdmin.status).toBe(201);
    expect((await admin.delete(`${path}/${byAdmin.body.id}`)).status).toBe(204);
    expect((await admin.get(path)).body.total_count).toBe(0);
  });

  it('GET /api/v4/web_push gives every signed-in user the same VAPID public key (a P-256 point)', async () => {
    const p = await person(admin);
    const [mine, theirs] = [await p.client.get('/api/v4/web_push'), await admin.get('/api/v4/web_push')];
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ enabled: true, vapid_public_key: theirs.body.vapid_public_key });
    const key = Buffer.from(mine.body.vapid_public_key, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect((await service.anonymous.get('/api/v4/web_push')).status).toBe(401);
  });
});
