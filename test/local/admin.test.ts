import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustCounts } from '../../lib/store/counters';
import { ApiClient } from '../support/api-client';
import { startService, type TestService } from '../support/runtime';

const run = promisify(execFile);
let service: TestService;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

function admin(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'infra/admin.ts', ...args], {
    env: {
      ...process.env,
      TABLE_NAME: service.runtime.tableName,
      AWS_ENDPOINT_URL_DYNAMODB: service.runtime.emulators.dynamodbEndpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
}

describe('the admin command', () => {
  it('creates an account and its admin in the table, usable through the API at once', async () => {
    const key = 'admin-command-key-'.padEnd(40, 'x');
    const { stdout } = await admin(
      'create-account',
      '--name',
      'Acme',
      '--email',
      'ops@acme.test',
      '--password',
      'acme password 1',
      '--api-key',
      key,
    );
    const accountId = /account:\s+(acc_\w+)/.exec(stdout)![1];
    const login = await service.anonymous.post('/public/login', { username: 'ops@acme.test', password: 'acme password 1' });
    expect(login.status).toBe(200);
    const viaKey = new ApiClient(service.url, { authorization: `Bearer ${key}` });
    const account = await viaKey.get(`/account/${accountId}`);
    expect(account.status).toBe(200);
    expect(account.body.name).toBe('Acme');
    expect((await viaKey.get('/api/v4/account_users')).body.data[0].roles.admin).toBe(true);
  }, 30_000);

  it('does nothing on bootstrap when an account exists, and refuses a short API key', async () => {
    expect((await admin('bootstrap')).stdout).toContain('already has an account');
    await expect(admin('create-account', '--name', 'x', '--email', 'x@y.z', '--api-key', 'short')).rejects.toMatchObject({ code: 2 });
  }, 30_000);
});

describe('admin help', () => {
  it('--help, -h and help print the usage; an unknown command prints it with exit code 2', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const { stdout } = await admin(flag);
      expect(stdout).toMatch(/^usage:/m);
      expect(stdout).toContain('npm run admin -- recount [--account');
    }
    const unknown = await admin('frobnicate').catch((error) => error);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command: frobnicate');
    expect(unknown.stderr).toMatch(/^usage:/m);
    const none = await admin().catch((error) => error);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^usage:/m);
  }, 30_000);
});

describe('admin recount', () => {
  it('recomputes corrupted counters from the items, and lists every counter it checked', async () => {
    const accountId = service.runtime.created!.account.id;
    const destination = (await service.admin.get('/api/v4/account_users')).body.data[0].id;
    for (const title of ['One', 'Two']) {
      expect(
        (await service.admin.post('/api/v4/alerts', { title, urgency: 'high', destination_account_user_ids: [destination] })).status,
      ).toBe(201);
    }
    const exact = (await service.admin.get('/api/v4/alerts')).body.total_count;
    // A crash between an entity write and its counter ADD, as the counters see it.
    await adjustCounts(accountId, 'ALERT', { total: 7, 'status:open': -2, 'urgency:low': 3 });
    await adjustCounts(accountId, 'ACU', { total: -1 });
    expect((await service.admin.get('/api/v4/alerts')).body.total_count).toBe(exact + 7);

    const { stdout } = await admin('recount', '--account', `acc_${accountId}`);
    expect(stdout).toMatch(new RegExp(`acc_${accountId} ALERT +repaired: .*total ${exact + 7} → ${exact}`));
    expect(stdout).toMatch(/ALERT +repaired: .*urgency:low 3 → 0/);
    expect(stdout).toMatch(/ACU +repaired: total 0 → 1/);
    expect(stdout).toMatch(/TEAM +exact/);
    expect(stdout).toMatch(/LOG#OWNER +exact/);
    expect(stdout).toMatch(/NTF#OWNER +exact/);
    expect((await service.admin.get('/api/v4/alerts')).body.total_count).toBe(exact);
    expect((await service.admin.get('/api/v4/alerts?status=open')).body.total_count).toBe(exact);
    expect((await service.admin.get('/api/v4/alerts?urgency=low')).body.total_count).toBe(0);
    expect((await service.admin.get('/api/v4/account_users')).body.total_count).toBe(1);

    // Without --account: every account of the registry; all exact now.
    const again = await admin('recount');
    expect(again.stdout).not.toContain('repaired');
    expect(again.stdout).toContain(`acc_${accountId} ALERT  exact`);
    const bad = await admin('recount', '--account', 'nope').catch((error) => error);
    expect(bad.code).toBe(2);
  }, 60_000);
});
