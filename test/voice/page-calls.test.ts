// Pages by a call the person can answer (issue 24): with the Chime SDK provider configured, a voice
// page is a call placed with CreateSipMediaApplicationCall (the real @aws-sdk/client-chime-sdk-voice,
// its transport the AWS stand-in), and the call's events, replayed in AWS's documented order into the
// real SIP media function, answer it: the receipt (answered → delivered, not answered → failed and
// failed over), the key (1 acknowledges, 2 rejects, 3 repeats, else or silence once more then goodbye)
// acting as the person, and what the person hears. The runtime runs without queue pollers: each test
// brings the queues to rest before it asserts.
// @moto: the receipt's conditional write and the transition under a retried invocation.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getNotification } from '../../lib/notify/store';
import type { ApiClient } from '../support/api-client';
import { startAwsMessagingStub, type AwsMessagingStub } from '../support/aws-messaging-stub';
import { settleQueues } from '../support/queues';
import { signupAccount, startService, type TestService } from '../support/runtime';
import { alertTo, notificationsOf, person, team, type Person, type Sent } from '../escalation/support';
import { ReplayedCall, said, SIP_MEDIA_APPLICATION_ID } from './pstn-events';

const FROM = '+12065550100';

let aws: AwsMessagingStub;
let service: TestService;
let admin: ApiClient;
let accountId: string;

beforeAll(async () => {
  aws = await startAwsMessagingStub();
  service = await startService({
    pollerConcurrency: 0,
    env: {
      OUTBOX: 'none',
      AWS_ENDPOINT_URL_CHIME_SDK_VOICE: aws.url,
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: aws.url,
      SMS_ORIGINATION_IDENTITY: '+18005550199',
      VOICE_ORIGINATION_IDENTITY: '+18005550198',
      VOICE_SIP_MEDIA_APPLICATION_ID: SIP_MEDIA_APPLICATION_ID,
      VOICE_FROM_NUMBER: FROM,
    },
  });
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
});

afterAll(async () => {
  await service?.stop();
  await aws?.close();
  delete process.env.AWS_ENDPOINT_URL_CHIME_SDK_VOICE;
  delete process.env.AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2;
});

afterEach(() => aws.accept('CreateSipMediaApplicationCall'));

/** The workers run over their queues until a whole round finds nothing to do. */
const rest = () => settleQueues(service, ['routing', 'escalation', 'webhooks'], 50);

async function ruleOf(p: Person, channels: string): Promise<void> {
  const rule = await admin.post('/api/v4/notification_rules', {
    name: `Rule of ${p.name}`,
    rules: `rules:\n  - match:\n      always: true\n    actions:\n      - type: notify\n        channels: [${channels}]\n`,
  });
  expect(rule.status, rule.text).toBe(201);
  expect((await admin.put(`/api/v4/account_users/${p.id}`, { notification_rule_id: rule.body.prefix_id })).status).toBe(200);
}

/** A person paged by voice first (their rule), with SMS to fail over to. */
async function voicePerson(): Promise<Person> {
  const p = await person(admin, { voice: true, sms: true, email: false, push: false });
  await ruleOf(p, 'voice');
  return p;
}

const pagesTo = async (alertId: string, p: Person): Promise<Sent[]> =>
  (await notificationsOf(admin, alertId)).filter((n) => n.account_user_id === p.id);
const notification = async (id: string) => (await admin.get(`/api/v4/notifications/${id}`)).body as Record<string, unknown>;
/** What the store holds (the reasons of a failure, `err`, which the v4 representation leaves out). */
const errOf = async (id: string) => (await getNotification(accountId, id))?.err;
const alertNow = async (id: string) => (await admin.get(`/api/v4/alerts/${id}`)).body as Record<string, unknown>;

/** The call placed for the person's voice page: the stand-in's record of it, and the call to replay. */
async function placedCall(alertId: string, p: Person): Promise<{ page: Sent; call: ReplayedCall; request: Record<string, unknown> }> {
  const page = (await pagesTo(alertId, p)).find((n) => n.channel === 'voice');
  expect(page, 'a voice page').toBeDefined();
  const placed = aws.calls.filter(
    (c) => c.operation === 'CreateSipMediaApplicationCall' && (c.body.ArgumentsMap as Record<string, string>).notification_id === page!.id,
  );
  expect(placed).toHaveLength(1);
  const call = new ReplayedCall(placed[0].messageId!, {
    callId: `call-${page!.id}`,
    to: page!.to,
    from: FROM,
    direction: 'Outbound',
  });
  return { page: page!, call, request: placed[0].body };
}

/** The documented start of an outbound call the person answers: new outbound call, ringing, answered. */
async function answer(call: ReplayedCall, request: Record<string, unknown>) {
  expect(await call.send('NEW_OUTBOUND_CALL', { Type: 'CallCreateRequest', Parameters: { Arguments: request.ArgumentsMap } })).toEqual({
    SchemaVersion: '1.0',
    Actions: [],
  });
  expect((await call.send('RINGING')).Actions).toEqual([]);
  return call.send('CALL_ANSWERED');
}

async function timeline(prefixId: string): Promise<{ action: string; account_user_ids?: string[] }[]> {
  const res = await admin.get(`/log?owner_id=${prefixId}&limit=100`);
  return (res.body.data as { data: { action: string; account_user_ids?: string[] } }[]).map((entry) => entry.data);
}

describe('a voice page is a call the person can answer', () => {
  it('places the call, speaks the page, and key 1 acknowledges as the person, who hears it', { tags: ['moto'] }, async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] }, 'Disk full on db-1');
    await rest();
    const { page, call, request } = await placedCall(alert.id, p);
    expect(request).toMatchObject({
      SipMediaApplicationId: SIP_MEDIA_APPLICATION_ID,
      FromPhoneNumber: FROM,
      ToPhoneNumber: page.to,
      ArgumentsMap: { notification_id: page.id },
    });
    expect(await notification(page.id)).toMatchObject({ status: 'sent', provider: 'chime-voice', provider_message_id: call.transactionId });

    const answered = await answer(call, request);
    expect(said(answered)).toEqual([
      { type: 'SpeakAndGetDigits', text: expect.stringMatching(/Disk full on db-1.*Press 1 to acknowledge/) },
    ]);
    expect(said(answered)[0].text).not.toMatch(/use the text message/);
    expect(await notification(page.id)).toMatchObject({ status: 'delivered', provider_status: 'CALL_ANSWERED' });

    const pressed = await call.pressed('1');
    expect(said(pressed)).toEqual([
      { type: 'Speak', text: expect.stringMatching(new RegExp(`Alert number ${String(alert.tiny_id).split('').join(' ')} acknowledged`)) },
      { type: 'Hangup' },
    ]);
    const after = await alertNow(alert.id);
    expect(after.status).toBe('acknowledged');
    expect((await admin.get(`/alert/${alert.prefix_id}`)).body.acknowledgedby).toBe(`usr_${p.userId}`);
    // The person's hangup after the goodbye changes nothing.
    expect((await call.hangup('0')).Actions).toEqual([]);
    await rest();
    expect(await notification(page.id)).toMatchObject({ status: 'delivered' });
    expect((await timeline(alert.prefix_id)).filter((e) => e.action === 'acknowledged')).toHaveLength(1);
    // Nothing else went out: the acknowledgement stopped the escalation.
    expect((await pagesTo(alert.id, p)).map((n) => n.channel)).toEqual(['voice']);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('key 2 rejects: the next layer is paged at once', async () => {
    const [q, r] = [await voicePerson(), await voicePerson()];
    const t = await team(admin, { layers: [[q.id], [r.id]], timeouts: [30, 30] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await rest();
    const { call, request } = await placedCall(alert.id, q);
    await answer(call, request);
    expect(said(await call.pressed('2'))[0].text).toMatch(/rejected/);
    await rest();
    expect((await alertNow(alert.id)).status).toBe('open');
    expect((await pagesTo(alert.id, r)).length).toBeGreaterThan(0);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('3 repeats; another key or silence repeats once, then the call ends with nothing changed', async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const { call, request } = await placedCall(alert.id, p);
    await answer(call, request);
    const repeated = await call.pressed('3');
    expect(said(repeated)).toEqual([{ type: 'SpeakAndGetDigits', text: expect.stringMatching(/^Alert number .*Press 1/) }]);
    const wrong = await call.pressed('7');
    expect(said(wrong)).toEqual([{ type: 'SpeakAndGetDigits', text: expect.stringMatching(/^That key does nothing here\..*Press 1/) }]);
    const silence = await call.pressed(null);
    expect(said(silence)).toEqual([{ type: 'Speak', text: 'No answer was given. Goodbye.' }, { type: 'Hangup' }]);
    await call.hangup('0');
    await rest();
    expect((await alertNow(alert.id)).status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('silence first is forgiven once too', async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const { call, request } = await placedCall(alert.id, p);
    await answer(call, request);
    expect(said(await call.pressed(null))[0].text).toMatch(/^I did not hear a key\./);
    expect(said(await call.pressed('1'))[0].text).toMatch(/acknowledged/);
    expect((await alertNow(alert.id)).status).toBe('acknowledged');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('a key pressed after the alert was acknowledged elsewhere is refused aloud and changes nothing', async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const { call, request } = await placedCall(alert.id, p);
    await answer(call, request);
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    const before = await alertNow(alert.id);
    const pressed = await call.pressed('1');
    expect(said(pressed)).toEqual([
      { type: 'Speak', text: expect.stringMatching(/^Nothing to do: alert number .* is acknowledged/) },
      { type: 'Hangup' },
    ]);
    const after = await alertNow(alert.id);
    expect(after.acknowledged_by).toEqual(before.acknowledged_by);
    expect(after.version ?? after.updated_at).toEqual(before.version ?? before.updated_at);
    expect((await timeline(alert.prefix_id)).filter((e) => e.action === 'acknowledged')).toHaveLength(1);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('an answer and a key delivered twice by the service change things once and are answered alike', { tags: ['moto'] }, async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const { page, call, request } = await placedCall(alert.id, p);
    const first = await answer(call, request);
    const deliveredAt = (await notification(page.id)).delivered_at;
    const again = await call.send('CALL_ANSWERED', undefined, { again: true });
    expect(again).toEqual(first);
    expect((await notification(page.id)).delivered_at).toBe(deliveredAt);

    const pressed = await call.pressed('1');
    const pressedAgain = await call.pressed('1', {}, { again: true });
    expect(said(pressedAgain)).toEqual(said(pressed));
    expect(said(pressedAgain)[0].text).toMatch(/acknowledged/);
    expect((await timeline(alert.prefix_id)).filter((e) => e.action === 'acknowledged')).toHaveLength(1);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('a call nobody answers is a failed receipt: the page fails over to the next channel at once', { tags: ['moto'] }, async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const { page, call, request } = await placedCall(alert.id, p);
    await call.send('NEW_OUTBOUND_CALL', { Type: 'CallCreateRequest', Parameters: { Arguments: request.ArgumentsMap } });
    await call.send('RINGING');
    expect((await call.hangup('480')).Actions).toEqual([]);
    expect(await notification(page.id)).toMatchObject({ status: 'failed', provider_status: 'HANGUP' });
    expect(await errOf(page.id)).toEqual([expect.stringMatching(/not answered \(no answer, SIP 480\)/)]);
    await rest();
    expect((await pagesTo(alert.id, p)).map((n) => [n.channel, n.status])).toEqual([
      ['voice', 'failed'],
      ['sms', 'sent'],
    ]);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('a call the service refuses to place fails over like any refused message', async () => {
    aws.refuse('CreateSipMediaApplicationCall', { type: 'BadRequestException', message: 'refused by the test' });
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const sent = await pagesTo(alert.id, p);
    expect(sent.map((n) => [n.channel, n.status])).toEqual([
      ['voice', 'failed'],
      ['sms', 'sent'],
    ]);
    expect(await errOf(sent[0].id)).toEqual([expect.stringMatching(/Amazon Chime SDK \(voice\) refused the message.*BadRequestException/)]);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it("an event naming another account's notification, or another number, is hung up on and changes nothing", async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const { page, request } = await placedCall(alert.id, p);
    const stranger = await signupAccount(service, 'Caller');
    const forged = new ReplayedCall('forged-transaction', { callId: 'forged-call', to: page.to, from: FROM, direction: 'Outbound' });
    forged.attributes = { account_id: stranger.accountId, notification_id: page.id };
    expect(said(await forged.send('CALL_ANSWERED'))).toEqual([
      { type: 'Speak', text: 'This call is no longer valid. Goodbye.' },
      { type: 'Hangup' },
    ]);
    const otherNumber = new ReplayedCall('other-transaction', {
      callId: 'other-call',
      to: '+14155550000',
      from: FROM,
      direction: 'Outbound',
    });
    otherNumber.attributes = request.ArgumentsMap as Record<string, string>;
    expect(said(await otherNumber.send('CALL_ANSWERED'))[0].text).toBe('This call is no longer valid. Goodbye.');
    expect(said(await otherNumber.pressed('1'))[0].text).toBe('This call is no longer valid. Goodbye.');
    expect(await notification(page.id)).toMatchObject({ status: 'sent' });
    expect((await alertNow(alert.id)).status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('a call update, a refused answer and an event that is not one are answered without touching anything', async () => {
    const p = await voicePerson();
    const alert = await alertTo(admin, { users: [p.id] });
    await rest();
    const { page, call, request } = await placedCall(alert.id, p);
    await answer(call, request);
    expect(
      (await call.send('CALL_UPDATE_REQUESTED', { Type: 'CallUpdateRequest', Parameters: { Arguments: { anything: 'x' } } })).Actions,
    ).toEqual([]);
    expect(
      said(await call.send('INVALID_LAMBDA_RESPONSE', { Type: 'Speak', ErrorType: 'InvalidLambdaResponse', ErrorMessage: 'bad' })),
    ).toEqual([{ type: 'Hangup' }]);
    const { handler } = await import('../../functions/voice/sip-media');
    expect(await handler({ hello: 'world' })).toEqual({ SchemaVersion: '1.0', Actions: [] });
    expect(await notification(page.id)).toMatchObject({ status: 'delivered' });
    expect((await alertNow(alert.id)).status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});
