// Without ALLOW_PRIVATE_AUTOMATION_TARGETS, an automation whose target resolves to a loopback,
// private, link-local or metadata address is refused: 400, the refusal logged, no connection made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useService, type TestService } from '../support/runtime';
import { startHttpTarget, type HttpTarget } from '../support/http-target';

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
});
