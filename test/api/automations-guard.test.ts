// Without ALLOW_PRIVATE_AUTOMATION_TARGETS, an automation whose target resolves to a loopback,
// private, link-local or metadata address is refused: 400, the refusal logged, no connection made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useService, type TestService } from '../support/runtime';
import { startHttpTarget, type HttpTarget } from '../support/http-target';
import { runDueSweeps } from '../support/quiescence';

let service: TestService;
let target: HttpTarget;

beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(async () => {
  await target?.close();
});
useService((started) => {
  service = started;
});

describe('the SSRF guard on automation runs', () => {
  it('refuses loopback, private, link-local and metadata targets in any spelling, and logs the refusal', async () => {
    const port = new URL(target.url).port;
    const hosts = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `2130706433:${port}`,
      `0x7f.1:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      '10.0.0.8',
      '169.254.169.254',
      '[fd00:ec2::254]',
    ];
    for (const host of hosts) {
      const created = await service.admin.post('/automation', { name: `to ${host}`, settings: `url: http://${host}/x\nmethod: GET\n` });
      expect(created.status, created.text).toBe(201);
      const run = await service.admin.post(`/automation/${created.body.id}/run`);
      expect(run.status, host).toBe(400);
      expect(run.body.errors[0].message).toMatch(/refused/);
      const logs = await service.admin.get(`/log?owner_id=${created.body.id}`);
      expect(logs.body.data).toHaveLength(1);
      expect(logs.body.data[0].data).toMatchObject({ status: null, refused: expect.objectContaining({ reason: expect.any(String) }) });
    }
    expect(target.connections).toBe(0);
  });

  it('outgoing webhooks: an IP-literal private URL is refused on save; a name resolving to one is refused when sending', async () => {
    const types = await service.admin.get('/api/v4/integration_types?limit=100');
    const outgoing = types.body.data.find((t: { slug: string }) => t.slug === 'outgoing_webhook').id;
    const port = new URL(target.url).port;
    const literal = await service.admin.post('/api/v4/integrations', {
      name: 'to loopback',
      urgency: 'low',
      integration_type_id: outgoing,
      options: { url: `http://127.0.0.1:${port}/hook` },
    });
    expect(literal.status).toBe(422);
    expect(literal.body.errors[0].message).toMatch(/options\.url is refused/);
    const named = await service.admin.post('/api/v4/integrations', {
      name: 'to localhost',
      urgency: 'low',
      integration_type_id: outgoing,
      options: { url: `http://localhost:${port}/hook`, events: ['alert.created'] },
    });
    expect(named.status, named.text).toBe(201);
    const accountUsers = await service.admin.get('/api/v4/account_users');
    await service.admin.post('/api/v4/alerts', {
      title: 'x',
      urgency: 'low',
      destination_account_user_ids: [accountUsers.body.data[0].id],
    });
    // At rest, the one try is logged as failed (not retrying), and nothing reached the target.
    await runDueSweeps(service);
    const logs = (await service.admin.get(`/log?owner_id=${named.body.prefix_id}`)).body.data;
    expect(logs).toHaveLength(1);
    expect(logs[0].data).toMatchObject({ outcome: 'failed', status: null });
    expect(logs[0].data.error).toMatch(/refused/);
    expect(target.connections).toBe(0);
  });
});
