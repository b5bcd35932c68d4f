// Live call routing (issue 24, the `live_call` integration type): a call to the integration's number,
// replayed in AWS's documented event order into the real SIP media function, opens an alert for the
// integration's team, bridges the caller to each layer's on-call person in turn, lets whoever answers
// acknowledge it (resolved when the call ends), and records a voicemail linked in the alert's
// description when nobody does; a maintenance window answers with a message and opens nothing. The
// number is bound to one integration at a time. The runtime runs without queue pollers: each test
// brings the queues to rest before it asserts.
// @moto: the number's conditional claim, and the alert a retried first event opens once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { settleQueues } from '../support/queues';
import { signupAccount, startService, type TestService } from '../support/runtime';
import { testClock } from '../support/dependencies';
import { person, team, type Person } from '../escalation/support';
import { ReplayedCall, said } from './pstn-events';

const BUCKET = 'oncall-voicemail';
let service: TestService;
let admin: ApiClient;
let numbers = 0;

beforeAll(async () => {
  service = await startService({
    pollerConcurrency: 0,
    env: { OUTBOX: 'memory', VOICEMAIL_BUCKET: BUCKET },
  });
  admin = service.admin;
});

afterAll(async () => {
  await service?.stop();
});
afterEach(() => testClock.reset());

/** The workers run over their queues until a whole round finds nothing to do. */
const rest = () => settleQueues(service, ['routing', 'escalation', 'webhooks'], 50);

const nextNumber = () => `+1206555${String(7000 + ++numbers).slice(-4)}`;

async function liveCall(client: ApiClient, fields: Record<string, unknown>) {
  return client.post('/api/v4/integrations', { name: `Hotline ${numbers}`, urgency: 'high', integration_type_id: 'live_call', ...fields });
}

const phoneOf = async (p: Person): Promise<string> => (await admin.get(`/api/v4/account_users/${p.id}`)).body.user.phones[0].phone;

async function hotline(layers: string[][], options: Record<string, unknown> = {}) {
  const t = await team(admin, { layers, timeouts: [30, 30] });
  const number = nextNumber();
  const res = await liveCall(admin, { team_ids: [t.id], options: { phone_number: number, ...options } });
  expect(res.status, res.text).toBe(201);
  return { integration: res.body as { id: string; prefix_id: string }, number, teamId: t.id };
}

const CALLER = '+15105550101';
const inbound = (number: string, transactionId = `tx-${Math.random().toString(36).slice(2)}`) =>
  new ReplayedCall(transactionId, { callId: `${transactionId}-a`, to: number, from: CALLER, direction: 'Inbound' });

async function alertsOfTeam(teamId: string): Promise<Record<string, any>[]> {
  const res = await admin.get(`/api/v4/alerts?destination_team_ids=${teamId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Record<string, any>[]).filter((a) => (a.destination_team_ids as string[]).includes(teamId));
}

describe('the live_call integration type', () => {
  it('is in the catalogue with its number and ring time, checks them, and binds a number to one integration at a time', async () => {
    const types = (await admin.get('/api/v4/integration_types?slug=live_call')).body.data;
    expect(types).toHaveLength(1);
    expect(types[0].options.map((o: { name: string }) => o.name)).toEqual(['phone_number', 'ring_seconds']);
    const p = await person(admin, { voice: true });
    const blank = await liveCall(admin, { account_user_ids: [p.id], options: {} });
    expect(blank.status).toBe(422);
    expect(blank.text).toMatch(/options\.phone_number can't be blank/);
    const bad = await liveCall(admin, { account_user_ids: [p.id], options: { phone_number: '555-0100', ring_seconds: 2 } });
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/options\.phone_number must be an E\.164/);
    expect(bad.text).toMatch(/options\.ring_seconds must be a whole number of seconds from 5 to 120/);

    const number = nextNumber();
    const first = await liveCall(admin, { account_user_ids: [p.id], options: { phone_number: number } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.options).toMatchObject({ phone_number: number, ring_seconds: 20 });
    const taken = await liveCall(admin, { account_user_ids: [p.id], options: { phone_number: number } });
    expect(taken.status).toBe(409);
    expect(taken.text).toMatch(/already bound to another live_call integration/);
    const stranger = await signupAccount(service, 'Hotline');
    const strangerMe = (await stranger.client.get('/api/v4/account_users')).body.data[0].id;
    expect((await liveCall(stranger.client, { account_user_ids: [strangerMe], options: { phone_number: number } })).status).toBe(409);
    // It receives no webhooks.
    const webhook = await fetch(`${service.url}/integration/${first.body.prefix_id}`, { method: 'POST', body: '{}' });
    expect(webhook.status).toBe(405);
    // A new number frees the old one; deleting frees the new one.
    const moved = nextNumber();
    expect((await admin.put(`/api/v4/integrations/${first.body.id}`, { options: { phone_number: moved } })).status).toBe(200);
    expect((await liveCall(admin, { account_user_ids: [p.id], options: { phone_number: number } })).status).toBe(201);
    expect((await admin.delete(`/api/v4/integrations/${first.body.id}`)).status).toBe(204);
    expect((await liveCall(stranger.client, { account_user_ids: [strangerMe], options: { phone_number: moved } })).status).toBe(201);
  });
});

describe('a call to a live_call number', () => {
  it(
    'opens an alert, rings layer 1, and whoever answers acknowledges it; it is resolved when the call ends',
    { tags: ['moto'] },
    async () => {
      const [first, second] = [await person(admin, { voice: true }), await person(admin, { voice: true })];
      const { number, teamId } = await hotline([[first.id], [second.id]]);
      const call = inbound(number);
      const answered = await call.send('NEW_INBOUND_CALL');
      expect(said(answered)).toEqual([
        { type: 'Speak', text: expect.stringMatching(/^You have reached Hotline \d+\. Connecting you/) },
        { type: 'CallAndBridge' },
      ]);
      expect(answered.Actions[1].Parameters).toEqual({
        CallTimeoutSeconds: 20,
        CallerIdNumber: number,
        Endpoints: [{ BridgeEndpointType: 'PSTN', Uri: await phoneOf(first) }],
      });
      await rest();
      const [alert] = await alertsOfTeam(teamId);
      expect(alert).toMatchObject({ title: `Call from ${CALLER}`, urgency: 'high', status: 'open' });

      call.addLegB({ callId: `${call.transactionId}-b`, to: await phoneOf(first), from: number, direction: 'Outbound' });
      const bridged = await call.send('ACTION_SUCCESSFUL', { Type: 'CallAndBridge', Parameters: answered.Actions[1].Parameters });
      expect(bridged.Actions).toEqual([]);
      const acknowledged = (await admin.get(`/api/v4/alerts/${alert.id}`)).body;
      expect(acknowledged.status).toBe('acknowledged');
      expect((await admin.get(`/alert/${alert.prefix_id}`)).body.acknowledgedby).toBe(`usr_${first.userId}`);

      // The person hangs up: the alert is resolved and the caller's leg ends too.
      expect(said(await call.hangup('0', 'LEG-B'))).toEqual([{ type: 'Hangup' }]);
      await rest();
      expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('resolved');
      expect(await alertsOfTeam(teamId)).toHaveLength(1);
    },
  );

  it('rings the next layer when nobody answers, then takes a voicemail linked in the description, and the alert escalates on', async () => {
    const [first, second] = [await person(admin, { voice: true }), await person(admin, { voice: true })];
    const { number, teamId } = await hotline([[first.id], [second.id]], { ring_seconds: 15 });
    const call = inbound(number);
    const opened = await call.send('NEW_INBOUND_CALL');
    expect(opened.Actions[1].Parameters).toMatchObject({ CallTimeoutSeconds: 15, Endpoints: [{ Uri: await phoneOf(first) }] });
    const noAnswer = { Type: 'CallAndBridge', ErrorType: 'CallNotAnswered', ErrorMessage: 'Call not answered' };
    const next = await call.send('ACTION_FAILED', noAnswer);
    expect(said(next)).toEqual([{ type: 'CallAndBridge' }]);
    expect(next.Actions[0].Parameters).toMatchObject({ Endpoints: [{ Uri: await phoneOf(second) }] });
    const voicemail = await call.send('ACTION_FAILED', noAnswer);
    await rest();
    const [alert] = await alertsOfTeam(teamId);
    expect(said(voicemail)).toEqual([{ type: 'Speak', text: expect.stringMatching(/leave a message/) }, { type: 'RecordAudio' }]);
    expect(voicemail.Actions[1].Parameters).toMatchObject({
      DurationInSeconds: 120,
      RecordingDestination: { Type: 'S3', BucketName: BUCKET, Prefix: `voicemail/${alert.account_id}/${alert.id}/` },
    });
    const key = `voicemail/${alert.account_id}/${alert.id}/${call.transactionId}.wav`;
    const thanks = await call.send('ACTION_SUCCESSFUL', {
      Type: 'RecordAudio',
      Parameters: voicemail.Actions[1].Parameters,
      RecordingDestination: { Type: 'S3', BucketName: BUCKET, Key: key },
    });
    expect(said(thanks)).toEqual([{ type: 'Speak', text: 'Thank you. Your message was passed on. Goodbye.' }, { type: 'Hangup' }]);
    expect((await call.hangup('0')).Actions).toEqual([]);
    await rest();
    const after = (await admin.get(`/api/v4/alerts/${alert.id}`)).body;
    expect(after.status).toBe('open');
    const link = /https?:\/\/\S+/.exec(after.description)?.[0];
    expect(link, after.description).toBeDefined();
    // The description's link is ours, valid 7 days; opening it signs a short S3 link at that moment
    // (one signed once would die with the Lambda role's credentials within hours).
    expect(link).toMatch(new RegExp(`^${service.url}/public/voicemail/[\\w-]+\\.[\\w-]+$`));
    const path = new URL(link!).pathname;
    const fetched = await fetch(`${service.url}${path}`, { redirect: 'manual' });
    expect(fetched.status).toBe(302);
    const url = new URL(fetched.headers.get('location')!);
    expect(url.pathname.endsWith(`/${key}`) || url.pathname.endsWith(encodeURI(key))).toBe(true);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const tampered = path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await fetch(`${service.url}${tampered}`, { redirect: 'manual' })).status).toBe(404);
    testClock.advance(7 * 86_400_000);
    const expired = await fetch(`${service.url}${path}`, { redirect: 'manual' });
    expect(expired.status).toBe(410);
    expect(after.description).toMatch(/^A live call to .*\n\nVoicemail from \+15105550101 \(the link is valid 7 days\)/);
    // The alert escalates by its pages as usual: the first layer was paged.
    const pages = (await admin.get(`/api/v4/notifications?alert_id=${alert.id}&limit=100`)).body.data as { account_user_id: string }[];
    expect(pages.map((n) => n.account_user_id)).toContain(first.id);
  });

  it('answers during a maintenance window with a message and opens no alert', async () => {
    const p = await person(admin, { voice: true });
    const { integration, number, teamId } = await hotline([[p.id]]);
    const start = Date.now() - 60_000;
    const window = await admin.post('/api/v4/maintenance_windows', {
      name: 'Switch swap',
      start_datetime: new Date(start).toISOString(),
      end_datetime: new Date(start + 3_600_000).toISOString(),
      time_zone: 'UTC',
      integration_ids: [integration.id],
    });
    expect(window.status, window.text).toBe(201);
    const call = inbound(number);
    expect(said(await call.send('NEW_INBOUND_CALL'))).toEqual([
      { type: 'Speak', text: expect.stringMatching(/is in a maintenance window and takes no calls now\. Goodbye\./) },
      { type: 'Hangup' },
    ]);
    await rest();
    expect(await alertsOfTeam(teamId)).toEqual([]);
  });

  it('opens one alert when the service delivers the first event twice', { tags: ['moto'] }, async () => {
    const p = await person(admin, { voice: true });
    const { number, teamId } = await hotline([[p.id]]);
    const call = inbound(number);
    const first = await call.send('NEW_INBOUND_CALL');
    call.attributes = undefined;
    const again = await call.send('NEW_INBOUND_CALL', undefined, { again: true });
    expect(again).toEqual(first);
    await rest();
    expect(await alertsOfTeam(teamId)).toHaveLength(1);
  });

  it('is not in service for a number no enabled live_call integration has, and a stray event ends the call', async () => {
    const stray = inbound('+12065550000');
    expect(said(await stray.send('NEW_INBOUND_CALL'))).toEqual([
      { type: 'Speak', text: 'This number is not in service. Goodbye.' },
      { type: 'Hangup' },
    ]);
    expect(said(await stray.send('ACTION_SUCCESSFUL', { Type: 'CallAndBridge' }))).toEqual([{ type: 'Hangup' }]);
  });
});
