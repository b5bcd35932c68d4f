// The request limits across instances: a second API process (test/support/api-instance.ts: its own
// leases, the same table) and this one draw from the same buckets, so a credential hammered through
// both passes its burst once, not once per instance. No refill can come during the test (one token
// a minute), so the count is exact on wall time, which the second process runs on. Also: the service
// refuses to start with a limit out of range, naming the variable.
// @moto: the buckets are conditional writes on shared items.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startApiInstance, type ApiInstance } from '../support/api-instance';
import { useService, type TestService } from '../support/runtime';

const LIMITS = { API_RATE_LIMIT_PER_MINUTE: '1', API_RATE_LIMIT_BURST: '8', ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000' };

let service: TestService;
let second: ApiInstance;

useService(
  (started) => {
    service = started;
  },
  { env: LIMITS },
);

beforeAll(async () => {
  second = await startApiInstance(LIMITS);
}, 60_000);
afterAll(() => second?.stop());

describe('two instances', () => {
  it('share one bucket per credential: the burst passes once in all', { tags: ['moto'] }, async () => {
    const created = await service.admin.post('/api/v4/api_keys', { name: 'shared' });
    expect(created.status).toBe(201);
    const headers = { authorization: `Bearer ${created.body.token}` };
    const here = new ApiClient(service.url, headers);
    const there = new ApiClient(second.url, headers);
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 ? there : here).get('/api/v4/account_users').then((res) => res.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect(statuses.filter((status) => status === 429)).toHaveLength(16);
    // Each instance now refuses on what it learnt, the other's takes included.
    expect((await here.get('/api/v4/account_users')).status).toBe(429);
    expect((await there.get('/api/v4/account_users')).status).toBe(429);
  });
});

describe('the limits themselves', () => {
  it('a limit out of range keeps the service from starting, naming the variable', async () => {
    // zod reports every variable at fault at once: one start for three, one for the fourth.
    const starts: Record<string, string>[] = [
      { API_RATE_LIMIT_PER_MINUTE: '0', API_RATE_LIMIT_BURST: '10000001', ACCOUNT_RATE_LIMIT_PER_MINUTE: '1.5' },
      { API_RATE_LIMIT_BURST: 'lots' },
    ];
    const outputs = await Promise.all(starts.map(startWith));
    for (const [i, variables] of starts.entries()) {
      expect(outputs[i].code, JSON.stringify(variables)).not.toBe(0);
      for (const name of Object.keys(variables)) expect(outputs[i].output).toContain(`${name}: a whole number from 1 to 10000000`);
      expect(outputs[i].output).not.toContain('READY');
    }
  }, 60_000);
});

/** Starts the local runtime in a process of its own with these variables: how it exited and what it printed. */
async function startWith(variables: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/local/runtime-child.ts'], {
    env: { ...process.env, TABLE_NAME: 'limits-refused', ...variables },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}
