// Automations through the real local server (api-earlier.md "Automation", docs/api.md#automations), with
// ALLOW_PRIVATE_AUTOMATION_TARGETS=true so a local HTTP server can be the target: settings validated
// on save, the password never shown back, runs logged with status, duration and an excerpt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupAccount, useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { people, type Person } from '../teams/helpers';
import { startHttpTarget, type HttpTarget } from '../support/http-target';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let target: HttpTarget;

beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(async () => {
  await target?.close();
});

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    [alice] = await people(admin, 1);
  },
  { env: { ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true' } },
);

const messages = (body: { errors: { message: string }[] }) => body.errors.map((e) => e.message).join(' | ');

function settings(path = '/hook', extra = ''): string {
  return `url: ${target.url}${path}
method: post
headers:
  X-Source: oncall
params:
  env: prod
data:
  text: "hello"
auth:
  username: bot
  password: "s3cret-pass"
${extra}`;
}

describe('automations', () => {
  it('creates; the settings are shown with the password replaced, and everything else as sent', async () => {
    const text = settings();
    const res = await admin.post('/automation', { name: 'Ticket', settings: text });
    expect(res.status, res.text).toBe(201);
    expect(res.body.id).toMatch(/^atm_/);
    expect(res.body).toMatchObject({ name: 'Ticket', enabled: true });
    expect(res.body.settings).toBe(text.replace('"s3cret-pass"', '"********"'));
    expect(JSON.stringify(await admin.get(`/automation/${res.body.id}`))).not.toContain('s3cret-pass');
    expect(JSON.stringify((await admin.get('/automation')).body)).not.toContain('s3cret-pass');
  });

  it('refuses settings that do not parse or lack url or method, naming the fault (400)', async () => {
    const cases: [string, RegExp][] = [
      ['url: [', /settings is not valid YAML at line \d+, column \d+/],
      ['method: GET', /settings\.url can't be blank/],
      ['url: https://example.com', /settings\.method can't be blank/],
      ['url: ftp://example.com\nmethod: GET', /http or https/],
      ['url: https://example.com\nmethod: FETCH', /settings\.method must be one of/],
      ['url: https://example.com\nmethod: GET\ndata:\n  t: "{{#each a}}{{#each b}}x{{/each}}{{/each}}"', /settings\.data\.t/],
    ];
    for (const [text, pattern] of cases) {
      const res = await admin.post('/automation', { name: 'x', settings: text });
      expect(res.status, text).toBe(400);
      expect(messages(res.body), text).toMatch(pattern);
    }
    expect((await admin.post('/automation', { name: 'x' })).status).toBe(400);
    expect((await admin.get('/automation')).body.data.every((a: { name: string }) => a.name !== 'x')).toBe(true);
  });

  it('runs: 200 with the log (status, duration, excerpt), the request as configured, and no password anywhere', async () => {
    const automation = (await admin.post('/automation', { name: 'Run me', settings: settings('/run') })).body;
    target.answer = (request) => ({ status: 201, body: `created; you sent ${request.headers.authorization}` });
    const res = await admin.post(`/automation/${automation.id}/run`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toMatch(/^log_/);
    expect(res.body).toMatchObject({ owner_id: automation.id, type: 'automation', subtype: 'OUTGOING' });
    expect(res.body.data).toMatchObject({ status: 201, trigger: 'manual', request: { method: 'POST' } });
    expect(typeof res.body.data.duration_ms).toBe('number');
    expect(res.body.data.excerpt).toMatch(/^created; you sent Basic /);
    const sent = target.received.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/run?env=prod');
    expect(sent.headers['x-source']).toBe('oncall');
    expect(JSON.parse(sent.body)).toEqual({ text: 'hello' });
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('bot:s3cret-pass').toString('base64')}`);
    const token = Buffer.from('bot:s3cret-pass').toString('base64');
    expect(res.text).not.toContain('s3cret-pass');
    expect(res.text).not.toContain(token);
    const logs = await admin.get(`/log?owner_id=${automation.id}`);
    expect(logs.body.data.map((l: { id: string }) => l.id)).toEqual([res.body.id]);
    expect(logs.text).not.toContain(token);
  });

  it('saving the password marker back keeps the stored password', async () => {
    const automation = (await admin.post('/automation', { name: 'Round trip', settings: settings('/keep') })).body;
    const read = (await admin.get(`/automation/${automation.id}`)).body;
    const put = await admin.put(`/automation/${automation.id}`, { settings: read.settings.replace('/keep', '/kept') });
    expect(put.status, put.text).toBe(200);
    expect(put.body.settings).toContain('/kept');
    target.answer = () => ({ status: 200, body: 'ok' });
    await admin.post(`/automation/${automation.id}/run`);
    expect(target.received.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('bot:s3cret-pass').toString('base64')}`);
  });

  it('a target answering 500 or slowly is still a logged run (200)', async () => {
    const automation = (await admin.post('/automation', { name: 'Failing', settings: settings('/fail') })).body;
    target.answer = () => ({ status: 503, body: 'down' });
    const res = await admin.post(`/automation/${automation.id}/run`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 503, excerpt: 'down' });
    expect(res.body.level).toBeGreaterThan(1);
  });

  it('a disabled automation does not run (409); non-admins may not run or write (403); other accounts see nothing', async () => {
    const automation = (await admin.post('/automation', { name: 'Off', settings: settings('/off'), enabled: false })).body;
    const before = target.received.length;
    expect((await admin.post(`/automation/${automation.id}/run`)).status).toBe(409);
    expect(target.received.length).toBe(before);
    await admin.put(`/automation/${automation.id}`, { enabled: true });
    expect((await alice.client.post(`/automation/${automation.id}/run`)).status).toBe(403);
    expect((await alice.client.post('/automation', { name: 'x', settings: settings() })).status).toBe(403);
    expect((await alice.client.put(`/automation/${automation.id}`, { name: 'x' })).status).toBe(403);
    expect((await alice.client.delete(`/automation/${automation.id}`)).status).toBe(403);
    expect((await alice.client.get(`/automation/${automation.id}`)).status).toBe(200);
    const other = await signupAccount(service);
    expect((await other.client.get(`/automation/${automation.id}`)).status).toBe(404);
    expect((await other.client.post(`/automation/${automation.id}/run`)).status).toBe(404);
    expect((await admin.delete(`/automation/${automation.id}`)).status).toBe(204);
    expect((await admin.get(`/automation/${automation.id}`)).status).toBe(404);
  });
});
