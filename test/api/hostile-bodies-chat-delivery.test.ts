// Hostile bodies against the routes of Slack, delivery receipts and test messages (contract §12,
// §13), through the real local server: a `__proto__` key, a huge array index, -1e400, an object
// nested 200 deep, JSON that does not parse, a wrong content type, and a 2 MB body. Each is answered
// 4xx at once (under a second of CPU: a loaded machine's waiting does not count; within Slack's 3 s)
// and changes nothing: no alert, no notification, the Slack connection and the person as they were,
// no answer posted to a response_url, nothing planted in a prototype. What Slack sends is refused
// unsigned before its body is read (401), and signed, at its payload (400) or its workspace (401).
// @moto: "changes nothing" rests on the store's lists and counters.
// @module-tag moto
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { ApiClient } from '../support/api-client';
import { withCpuTime } from '../support/cpu-time';
import { settle } from '../support/quiescence';
import { startService, type TestService } from '../support/runtime';
import { slackAppEnv, SlackStandIn, type Workspace } from '../support/slack-stand-in';
import { DELIVERY_TOPIC, snsDelivery } from '../notify/delivery-events';
import { startSnsStub, type SnsStub } from '../integrations/sns-support';
import { connect, nowSeconds } from '../slack/support';

let standIn: SlackStandIn;
let sns: SnsStub;
let service: TestService;
let admin: ApiClient;
let workspace: Workspace;
let adminUserId: string;

beforeAll(async () => {
  standIn = await SlackStandIn.start();
  sns = await startSnsStub();
  service = await startService({ env: { ...slackAppEnv(standIn), DELIVERY_TOPIC_ARN: DELIVERY_TOPIC } });
  admin = service.admin;
  workspace = standIn.addWorkspace('Hostile');
  await connect(admin, standIn, workspace);
  adminUserId = (await admin.get('/api/v4/account_users')).body.data[0].id as string;
});

afterAll(async () => {
  await service?.stop();
  await standIn?.close();
  await sns?.close();
});

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

interface HostileBody {
  name: string;
  contentType: string;
  body: string;
}

/** The hostile JSON bodies, each around a field the route reads (`field`: channel, bot_token, Type, payload). */
function hostileJson(field: string): HostileBody[] {
  return [
    {
      name: '__proto__ key',
      contentType: JSON_TYPE,
      body: `{"${field}":"x","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`,
    },
    { name: 'huge array index', contentType: FORM_TYPE, body: `${field}[4294967294]=1&${field}[0]=x` },
    { name: '-1e400', contentType: JSON_TYPE, body: `{"${field}":-1e400}` },
    { name: '200-deep object', contentType: JSON_TYPE, body: `{"${field}":${nested(200)}}` },
    { name: 'invalid JSON', contentType: JSON_TYPE, body: `{"${field}":` },
    { name: 'wrong content type', contentType: 'text/xml', body: `<${field}>x</${field}>` },
    { name: '2 MB body', contentType: JSON_TYPE, body: `{"${field}":"${'x'.repeat(2 * 1024 * 1024)}"}` },
  ];
}

/** What Slack posts, made hostile: the form's payload (interactions) or fields (commands) carry the pieces. */
function hostileSlackForms(team: string): HostileBody[] {
  const payload = (json: string) => `payload=${encodeURIComponent(json)}`;
  const teamField = `"team":{"id":"${team}"}`;
  return [
    {
      name: '__proto__ key',
      contentType: FORM_TYPE,
      body: payload(`{${teamField},"type":"block_actions","__proto__":{"polluted":true},"user":{"__proto__":{"polluted":true}}}`),
    },
    {
      name: 'huge array index',
      contentType: FORM_TYPE,
      body: `team_id=${team}&actions[4294967294]=1&${payload(`{${teamField},"actions":{"4294967294":{}}}`)}`,
    },
    {
      name: '-1e400',
      contentType: FORM_TYPE,
      body: payload(`{${teamField},"type":"block_actions","user":{"id":-1e400},"actions":[{"action_id":-1e400}]}`),
    },
    { name: '200-deep object', contentType: FORM_TYPE, body: payload(`{${teamField},"type":"block_actions","user":${nested(200)}}`) },
    { name: 'invalid JSON', contentType: FORM_TYPE, body: `team_id=${team}&payload=%7B%22team%22%3A` },
    { name: 'wrong content type', contentType: JSON_TYPE, body: `{${teamField},"team_id":"${team}","type":"block_actions"}` },
    {
      name: '2 MB body',
      contentType: FORM_TYPE,
      body: `team_id=${team}&${payload(`{${teamField},"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`)}`,
    },
  ];
}

interface Answer {
  status: number;
  text: string;
  ms: number;
  cpuMs: number;
}

async function send(method: string, path: string, hostile: HostileBody | null, headers: Record<string, string> = {}): Promise<Answer> {
  const { value, cpuMs } = await withCpuTime(async () => {
    const started = performance.now();
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: { ...(hostile ? { 'content-type': hostile.contentType } : {}), ...headers },
      body: hostile?.body,
    });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - started };
  });
  return { ...value, cpuMs };
}

/** Everything a hostile body could have changed, read through the API (after the runtime came to rest). */
async function fingerprint(): Promise<string> {
  await settle(service);
  const reads = await Promise.all([
    admin.get('/api/v4/alerts?limit=100'),
    admin.get('/api/v4/notifications?limit=100'),
    admin.get('/api/v4/slack'),
    admin.get(`/api/v4/account_users/${adminUserId}`),
    admin.get('/api/v4/broadcasts?limit=100'),
  ]);
  for (const read of reads) expect(read.status, read.text).toBe(200);
  const stable = reads.map((read) => JSON.stringify(read.body));
  return createHash('sha256').update(stable.join('\n')).digest('hex');
}

function expectRefused(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${what}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
  expect(answer.cpuMs, what).toBeLessThan(1_000);
  expect(answer.ms, what).toBeLessThan(3_000);
  // The contract's error body, never a stack trace.
  if (answer.text) expect(JSON.parse(answer.text)?.errors?.[0]?.message, what).toEqual(expect.any(String));
  expect(answer.text, what).not.toMatch(/\n\s+at /);
}

const unpolluted = () => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
};

describe('hostile bodies on the routes of Slack, delivery receipts and test messages', () => {
  it('the routes of the API (test messages, the Slack connection): 4xx naming what is wrong, nothing changed', async () => {
    const before = await fingerprint();
    const routes: [string, string, string][] = [
      ['POST', `/api/v4/account_users/${adminUserId}/test_notification`, 'channel'],
      ['PUT', '/api/v4/slack', 'bot_token'],
    ];
    for (const [method, path, field] of routes) {
      for (const hostile of hostileJson(field)) {
        expectRefused(await send(method, path, hostile, admin.headers), `${method} ${path} ${hostile.name}`);
      }
    }
    unpolluted();
    expect(await fingerprint()).toBe(before);
  });

  it('delivery receipts (SNS): refused unless signed; signed, an event that is not JSON is 400 and any other is matched to nothing; nothing changed', async () => {
    const before = await fingerprint();
    for (const hostile of hostileJson('Type')) {
      const answer = await send('POST', '/public/delivery/sns', hostile, { 'x-amz-sns-message-type': 'Notification' });
      expectRefused(answer, `/public/delivery/sns ${hostile.name}`);
    }
    // Signed by SNS, from the delivery topic, with a hostile event inside: not JSON is 400; an event of
    // no shape a provider sends is ignored, and one naming no message of ours is unknown (200 both, as
    // docs/api.md#delivery-receipts says: SNS would deliver anything else again).
    const events: [string, string, number][] = [
      [
        '__proto__ key',
        `{"eventType":"Delivery","mail":{"messageId":"m-1","__proto__":{"polluted":true}},"__proto__":{"polluted":true}}`,
        200,
      ],
      ['huge array index', `{"eventType":"Delivery","mail":{"messageId":{"4294967294":"m-1"}},"recipients":{"4294967294":"x"}}`, 200],
      ['-1e400', `{"eventType":-1e400,"mail":{"messageId":-1e400},"eventTimestamp":-1e400}`, 200],
      ['200-deep object', `{"eventType":"Delivery","mail":${nested(200)}}`, 200],
      ['invalid JSON', `{"eventType":`, 400],
    ];
    for (const [name, message, status] of events) {
      const answer = await send(
        'POST',
        '/public/delivery/sns',
        { name, contentType: 'text/plain; charset=UTF-8', body: JSON.stringify(snsDelivery(message)) },
        {
          'x-amz-sns-message-type': 'Notification',
        },
      );
      expect(answer.status, `signed ${name}: ${answer.text}`).toBe(status);
      expect(answer.cpuMs, name).toBeLessThan(1_000);
      expect(answer.ms, name).toBeLessThan(3_000);
      if (status === 200)
        expect(JSON.parse(answer.text), name).toEqual({
          received: 'receipt',
          outcome: expect.stringMatching(/^(ignored|unknown_message)$/),
        });
      else expectRefused(answer, `signed ${name}`);
    }
    const huge = snsDelivery(`{"eventType":"Delivery","mail":{"messageId":"${'x'.repeat(2 * 1024 * 1024)}"}}`);
    const tooLarge = await send('POST', '/public/delivery/sns', { name: '2 MB', contentType: 'text/plain', body: JSON.stringify(huge) });
    expectRefused(tooLarge, 'signed 2 MB');
    expect(tooLarge.status).toBe(413);
    unpolluted();
    expect(await fingerprint()).toBe(before);
  });

  it('what Slack sends, unsigned: 401 before the body is read; signed: refused at its payload or workspace; nothing changed', async () => {
    const before = await fingerprint();
    const responsesBefore = standIn.responses.length;
    for (const path of ['/public/slack/interactions', '/public/slack/commands']) {
      for (const hostile of hostileSlackForms(workspace.teamId)) {
        const unsigned = await send('POST', path, hostile, { 'x-slack-request-timestamp': String(nowSeconds()) });
        expectRefused(unsigned, `${path} unsigned ${hostile.name}`);
        expect(unsigned.status, `${path} unsigned ${hostile.name}`).toBe(401);
        const timestamp = nowSeconds();
        const signed = await send('POST', path, hostile, {
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': SlackStandIn.sign(workspace.signingSecret, timestamp, hostile.body),
        });
        expectRefused(signed, `${path} signed ${hostile.name}`);
      }
    }
    // "Add to Slack"'s redirect: the same pieces in its query, and bodies posted to it.
    const queries = [
      'code=x&state[__proto__][polluted]=1&__proto__[polluted]=1',
      'code[4294967294]=1&state=x',
      'code=-1e400&state=-1e400',
      `code=x&state=${'[a]'.repeat(200)}`,
      'code=%ZZ&state=%7B',
    ];
    for (const query of queries) {
      const answer = await send('GET', `/public/slack/oauth?${query}`, null, { accept: JSON_TYPE });
      // Its answers are the install's outcome ({status, title, detail, team_id, team_name}), not the error body.
      expectRefused({ ...answer, text: '' }, `/public/slack/oauth?${query.slice(0, 40)}`);
      expect(JSON.parse(answer.text)).toMatchObject({ status: answer.status, team_id: null });
    }
    for (const hostile of hostileJson('code')) {
      const answer = await send('POST', '/public/slack/oauth', hostile);
      expectRefused(answer, `POST /public/slack/oauth ${hostile.name}`);
    }
    unpolluted();
    expect(await fingerprint()).toBe(before);
    expect(standIn.responses.length).toBe(responsesBefore);
    expect(standIn.calls.filter((call) => call.method === 'oauth.v2.access')).toEqual([]);
  });
});
