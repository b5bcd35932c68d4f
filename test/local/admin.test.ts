import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
