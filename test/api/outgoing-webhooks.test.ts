// Outgoing webhooks through the real local server (docs/api.md#routers-and-automations): the integration type in the
// catalogue, its options checked and secrets hidden, every subscribed change of any alert of the
// account POSTed as {type, data} with a verifiable signature, retried on 5xx, 429 and timeouts with the
// same X-Webhook-Id, each try logged on the integration, never slowing the alert's own change, and a
// delivery whose message was lost re-driven by the sweeper. TIME_SCALE shortens the backoff.
// Every webhook a test makes is deleted after it: a webhook left behind would receive every later
// test's events (one on an unreachable host retried each of them for the whole backoff, 24 h ÷
// TIME_SCALE), work that checks nothing and that a slow backend (moto) has to get through first.
// Waits last as long as the runtime still has work that could bring what is waited for.
// @moto: delayed messages and claimed delivery tries.
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertDelivery } from '../../lib/outgoing-webhooks/delivery-store';
import { newId } from '../../lib/ids';
import { useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { people, type Person } from '../teams/helpers';
import { heldAnswers, startHttpTarget, type HttpTarget, type Received } from '../support/http-target';
import { passTime, settle, untilArrived } from '../support/quiescence';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let target: HttpTarget;
let accountId: string;
let outgoingTypeId: string;

beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(async () => {
  await target?.close();
});
// Each test chooses its receiver's answers; the others get 200.
beforeEach(() => {
  target.answer = () => ({ status: 200, body: 'ok' });
});
/** The webhooks the running test made (deleted after it: see the top of the file). */
const made: string[] = [];
afterEach(async () => {
  for (const id of made.splice(0)) expect((await admin.delete(`/api/v4/integrations/${id}`)).status).toBe(204);
});

/** Past a first retry (30 s ÷ TIME_SCALE 3000) and the sweeper's grace for a lost one (at least 1 s). */
const PAST_FIRST_RETRY_MS = 30_000 / 3000 + 1_000;

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    [alice] = await people(admin, 1);
    accountId = (await admin.get(`/api/v4/account_users/${alice.id}`)).body.account_id;
    const types = await admin.get('/api/v4/integration_types?limit=100');
    outgoingTypeId = types.body.data.find((t: { slug: string }) => t.slug === 'outgoing_webhook').id;
  },
  { env: { TIME_SCALE: '3000', ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true' } },
);

const uid = () => Math.random().toString(36).slice(2, 10);
const messages = (body: { errors: { message: string }[] }) => body.errors.map((e) => e.message).join(' | ');

async function outgoing(options: Record<string, unknown>, path = `/${uid()}`) {
  const res = await admin.post('/api/v4/integrations', {
    name: `out-${uid()}`,
    urgency: 'low',
    integration_type_id: outgoingTypeId,
    options: { url: `${target.url}${path}`, ...options },
  });
  expect(res.status, res.text).toBe(201);
  made.push(res.body.id);
  return { integration: res.body as { id: string; prefix_id: string; options: Record<string, unknown> }, path };
}

const at = (path: string) => target.received.filter((r) => r.url === path);

async function received(path: string, count: number): Promise<Received[]> {
  return untilArrived(service, () => (at(path).length >= count ? at(path) : undefined), `${count} requests at ${path}`);
}

/** The tries logged on a webhook, once the runtime is at rest (each try is logged after its answer). */
async function triesLogged(integration: { prefix_id: string }): Promise<any[]> {
  await settle(service);
  return (await admin.get(`/log?owner_id=${integration.prefix_id}&limit=100`)).body.data;
}

async function newAlert(fields: Record<string, unknown> = {}) {
  const res = await admin.post('/api/v4/alerts', {
    title: `Alert ${uid()}`,
    urgency: 'high',
    destination_account_user_ids: [alice.id],
    ...fields,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; prefix_id: string };
}

describe('the outgoing_webhook integration type', () => {
  it('is in the catalogue with its options', async () => {
    const type = (await admin.get(`/api/v4/integration_types/${outgoingTypeId}`)).body;
    expect(type.slug).toBe('outgoing_webhook');
    expect(type.options.map((o: { name: string }) => o.name)).toEqual(['url', 'events', 'username', 'password', 'secret']);
  });

  it('needs a url, knows its events, needs no destination, and never shows password or secret', async () => {
    const missing = await admin.post('/api/v4/integrations', { name: 'x', urgency: 'low', integration_type_id: outgoingTypeId });
    expect(missing.status).toBe(422);
    expect(messages(missing.body)).toMatch(/options\.url/);
    const badEvents = await admin.post('/api/v4/integrations', {
      name: 'x',
      urgency: 'low',
      integration_type_id: outgoingTypeId,
      option_url: 'https://example.com/hook',
      option_events: ['alert.created', 'alert.exploded'],
    });
    expect(badEvents.status).toBe(422);
    expect(messages(badEvents.body)).toMatch(/alert\.exploded/);
    const badUrl = await admin.post('/integration', { name: 'x', type: 'outgoing_webhook', options: { url: 'ftp://example.com' } });
    expect(badUrl.status).toBe(400);
    const { integration } = await outgoing({ username: 'hook', password: 'pa55word', secret: 'shh-secret' });
    expect(integration.options).toMatchObject({ username: 'hook', password: '********', secret: '********' });
    const earlier = await admin.get(`/integration/${integration.prefix_id}`);
    expect(earlier.body.type).toBe('outgoing_webhook');
    expect(earlier.body.destination_ids).toEqual([]);
    expect(earlier.text).not.toContain('pa55word');
    expect(earlier.text).not.toContain('shh-secret');
    // Saving back what was read keeps the secrets.
    const saved = await admin.put(`/api/v4/integrations/${integration.id}`, { options: earlier.body.options });
    expect(saved.status, saved.text).toBe(200);
    const viaEarlier = await admin.post('/integration', {
      name: 'Earlier out',
      type: 'outgoing_webhook',
      options: { url: 'https://example.com/x' },
    });
    expect(viaEarlier.status, viaEarlier.text).toBe(201);
    made.push(viaEarlier.body.id);
  });

  // Found while typing the options for typescript-eslint: the unknown events were printed with String(),
  // which threw on an object with an own toString key (a 500) and printed any other object as [object Object].
  it('an event that is not text is named in the 422, never a 500', async () => {
    for (const [event, shown] of [
      [{ toString: 1 }, '{"toString":1}'],
      [{ name: 'alert.created' }, '{"name":"alert.created"}'],
    ] as const) {
      const res = await admin.post('/api/v4/integrations', {
        name: 'x',
        urgency: 'low',
        integration_type_id: outgoingTypeId,
        options: { url: 'https://example.com/hook', events: ['alert.created', event] },
      });
      expect(res.status, res.text).toBe(422);
      expect(messages(res.body)).toContain(`options.events names unknown events: ${shown} (known:`);
    }
  });

  it('receives nothing: an inbound POST is 405', async () => {
    const { integration } = await outgoing({});
    const res = await service.anonymous.post(`/integration/${integration.prefix_id}`, { title: 'x' });
    expect(res.status).toBe(405);
  });
});

describe('alert events', () => {
  it('POSTs each change of any alert as {type, data} with X-Webhook-Id, a verifiable X-Signature and basic auth', async () => {
    const secret = 'the signing secret';
    const { path } = await outgoing({ secret, username: 'hook', password: 'pa55word' });
    target.answer = () => ({ status: 200, body: 'ok' });
    const alert = await newAlert();
    const opened = await received(path, 2);
    const bodies = opened.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['alert.created', 'alert.open']);
    const created = bodies.find((b) => b.type === 'alert.created');
    expect(created.data).toMatchObject({ id: alert.prefix_id, status: 'open', sid: `acc_${accountId}` });
    for (const request of opened) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-webhook-id']).toMatch(/^[0-9A-Z]{26}$/);
      const expected = `v1=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
      expect(request.headers['x-signature']).toBe(expected);
      expect(request.headers.authorization).toBe(`Basic ${Buffer.from('hook:pa55word').toString('base64')}`);
    }
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    expect((await admin.post(`/api/v4/alerts/${alert.id}/resolve`)).status).toBe(200);
    // Escalation's changes of the alert (its page to alice) are events too: wait for the two asked for.
    const all = await untilArrived(
      service,
      () => {
        const now = at(path);
        const seen = now.map((r) => JSON.parse(r.body).type);
        return seen.includes('alert.acknowledged') && seen.includes('alert.resolved') ? now : undefined;
      },
      'alert.acknowledged and alert.resolved',
    );
    const types = all.map((r) => JSON.parse(r.body).type);
    expect(types).toContain('alert.acknowledged');
    expect(types).toContain('alert.resolved');
    const resolved = all.map((r) => JSON.parse(r.body)).find((b) => b.type === 'alert.resolved');
    expect(resolved.data.status).toBe('resolved');
    const acknowledged = all.map((r) => JSON.parse(r.body)).find((b) => b.type === 'alert.acknowledged');
    expect(acknowledged.data.status).toBe('acknowledged');
  });

  it('sends only the events chosen; a disabled webhook sends nothing', async () => {
    const { path, integration } = await outgoing({ events: ['alert.resolved'] });
    const alert = await newAlert();
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    const got = await received(path, 1);
    await passTime(service, PAST_FIRST_RETRY_MS);
    expect(at(path).map((r) => JSON.parse(r.body).type)).toEqual(['alert.resolved']);
    expect(got[0].headers['x-signature']).toBeUndefined();
    await admin.put(`/api/v4/integrations/${integration.id}`, { enabled: false });
    const second = await newAlert();
    await admin.post(`/api/v4/alerts/${second.id}/resolve`);
    await passTime(service, PAST_FIRST_RETRY_MS);
    expect(at(path)).toHaveLength(1);
  });

  it('retries 500, 429 and timeouts with backoff and the same X-Webhook-Id and body, logging every try', { tags: ['moto'] }, async () => {
    const { path, integration } = await outgoing({ events: ['alert.created'] });
    // The third try is never answered (until the test ends): the sender's own timeout ends it.
    const hung = heldAnswers();
    target.answer = (request) => {
      if (request.url !== path) return { status: 200 };
      const n = at(path).length;
      if (n === 1) return { status: 500, body: 'boom' };
      if (n === 2) return { status: 429, body: 'slow down' };
      if (n === 3) return { status: 200, body: 'late', until: hung.until };
      return { status: 204 };
    };
    await newAlert();
    const tries = await received(path, 4);
    hung.release();
    target.answer = () => ({ status: 200, body: 'ok' });
    expect(new Set(tries.map((t) => t.headers['x-webhook-id'])).size).toBe(1);
    expect(new Set(tries.map((t) => t.body)).size).toBe(1);
    expect(tries.map((t) => t.headers['x-webhook-attempt'])).toEqual(['1', '2', '3', '4']);
    // Backoff: 30 s and 1 min ÷ TIME_SCALE 3000 at least.
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(9);
    const logs = await triesLogged(integration);
    expect(logs.map((l: any) => [l.data.try, l.data.status, l.data.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 429, 'retrying'],
      [3, null, 'retrying'],
      [4, 204, 'delivered'],
    ]);
    expect(logs[2].data.error).toMatch(/timeout/);
    expect(logs.every((l: any) => l.subtype === 'OUTGOING' && l.data.webhook_id === tries[0].headers['x-webhook-id'])).toBe(true);
  });

  it('a 4xx other than 429 is not retried', async () => {
    const { path, integration } = await outgoing({ events: ['alert.created'] });
    target.answer = (request) => (request.url === path ? { status: 410, body: 'gone' } : { status: 200 });
    await newAlert();
    await received(path, 1);
    await passTime(service, PAST_FIRST_RETRY_MS);
    expect(at(path)).toHaveLength(1);
    const logs = await triesLogged(integration);
    expect(logs.map((l: any) => l.data.outcome)).toEqual(['failed']);
  });

  it('never holds up the change of the alert, even when the receiver hangs', async () => {
    const { path, integration } = await outgoing({ events: ['alert.acknowledged'] });
    // The receiver answers only when the test releases it, after the acknowledgement has answered.
    const receiver = heldAnswers();
    target.answer = (request) => (request.url === path ? { status: 200, until: receiver.until } : { status: 200 });
    const alert = await newAlert();
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    // No delivery had ended by the 200: one made within the change would have been answered (it is
    // not) or timed out before it. It comes after the change, and is still waiting for its answer.
    expect(at(path).filter((r) => !r.open)).toEqual([]);
    const [delivery] = await received(path, 1);
    receiver.release();
    const logs = await triesLogged(integration);
    expect(logs.map((l: any) => [l.data.outcome, l.data.status])).toEqual([['delivered', 200]]);
    expect(JSON.parse(delivery.body).type).toBe('alert.acknowledged');
  });

  it('a pending delivery whose queue message was lost is re-driven by the sweeper', { tags: ['moto'] }, async () => {
    const { path, integration } = await outgoing({ events: ['alert.created'] });
    const id = newId();
    const now = Date.now();
    await insertDelivery({
      id,
      account_id: accountId,
      integration_id: integration.id,
      alert_id: newId(),
      event: 'alert.created',
      body: '{"type":"alert.created","data":{}}',
      status: 'pending',
      attempts: 0,
      due_at: now - 5_000,
      last_status: null,
      last_error: null,
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    });
    await service.runtime.runScheduled('sweeper');
    const got = await received(path, 1);
    expect(got[0].headers['x-webhook-id']).toBe(id);
    expect(got[0].body).toBe('{"type":"alert.created","data":{}}');
  });
});
