// Starts the real local runtime for one test file: embedded emulators by default, or the endpoint in
// AWS_ENDPOINT_URL (moto, LocalStack) with a table and queues of its own, so runs never collide.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRuntime, type Runtime, type RuntimeOptions } from '../../infra/local/runtime';
import { ApiClient } from './api-client';
import { forgetOutboxMessages, testClock, testDependencies } from './dependencies';

export const ADMIN_EMAIL = 'admin@example.com';

/**
 * Request limits no test reaches unless it means to (test/api/request-limits.test.ts sets its own):
 * a test that makes a few hundred requests with one key would otherwise meet the default 1 200 a
 * minute with bursts of 200 instead of what it tests. A burst no test spends, refilled slowly: a
 * bucket's time then stays far (days; minutes at TIME_SCALE=600) inside its reach whatever a test
 * did with the clock before the clock went back to wall time. With a fast refill the reach is short
 * (a minute at 10 000 000 a minute), and a clock put back by just more than it is what a real host's
 * correction would meet too: refusals for up to the 2 s of skew the buckets allow.
 */
export const UNLIMITED_REQUESTS = {
  API_RATE_LIMIT_PER_MINUTE: '1000',
  API_RATE_LIMIT_BURST: '10000000',
  ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000',
};
export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestService {
  runtime: Runtime;
  url: string;
  /** The bootstrap admin, authenticated with its API key. */
  admin: ApiClient;
  adminKey: string;
  anonymous: ApiClient;
  /** True when running against an external endpoint (moto, LocalStack). */
  external: boolean;
  stop(): Promise<void>;
}

export async function startService(options: RuntimeOptions = {}): Promise<TestService> {
  const external = Boolean(process.env.AWS_ENDPOINT_URL);
  // Files share a process (and this module) one after another: each service starts with an empty outbox.
  forgetOutboxMessages();
  const suffix = randomBytes(4).toString('hex');
  const adminKey = options.bootstrap?.apiKey ?? `test-admin-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-test-${suffix}`,
    visibilityTimeoutSeconds: 2,
    scheduleIntervalMs: 3_600_000,
    ...options,
    dependencies: { ...testDependencies, ...options.dependencies },
    env: { OUTBOX: 'memory', LOG_LEVEL: 'error', SIGNUP_ENABLED: 'true', ...UNLIMITED_REQUESTS, ...options.env },
    bootstrap: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, apiKey: adminKey, ...options.bootstrap },
  });
  // The start-up re-drive (a run of the sweeper, on a restart over an existing table) is done before
  // the first test: no test runs beside a sweep it did not ask for (one re-arms the timers a test checks).
  await runtime.redrive;
  return {
    runtime,
    url: runtime.url,
    admin: new ApiClient(runtime.url, { authorization: `Bearer ${adminKey}` }),
    adminKey,
    anonymous: new ApiClient(runtime.url, {}),
    external,
    stop: () => runtime.stop(),
  };
}

/**
 * The one test setup of the API tests: starts a service for the test file before its tests (then
 * runs `setup`, which keeps what the file needs: the admin client, its own ids, seeded objects) and
 * stops it after them. The service's clock is back at wall time after each test.
 */
export function useService(setup: (service: TestService) => Promise<void> | void = () => {}, options: RuntimeOptions = {}): void {
  let started: TestService | undefined;
  beforeAll(async () => {
    started = await startService(options);
    await setup(started);
  });
  afterEach(() => testClock.reset());
  afterAll(async () => {
    await started?.stop();
  });
}

/** What most files of one service use: the service, its bootstrap admin and the admin's account. */
export interface ServiceAccount {
  service: TestService;
  admin: ApiClient;
  accountId: string;
}

/**
 * useService, with the admin's account read once it runs: `const the = useServiceAccount()`, then
 * `the.admin`, `the.accountId` inside the tests (they are set before the first test runs).
 */
export function useServiceAccount(options: RuntimeOptions = {}): ServiceAccount {
  const the = {} as ServiceAccount;
  useService(async (started) => {
    the.service = started;
    the.admin = started.admin;
    the.accountId = (await started.admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
  }, options);
  return the;
}

/** A second, independent account (through public signup) and a client acting as its admin. */
export async function signupAccount(
  service: TestService,
  name = 'Other',
): Promise<{ client: ApiClient; accountId: string; email: string }> {
  const email = `${name.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
  const res = await service.anonymous.post('/public/signup', {
    account_name: `${name} Inc`,
    name: `${name} Admin`,
    email,
    password: 'another secret password',
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body as { token: string; account_id: string };
  return { client: new ApiClient(service.url, { authorization: `Bearer ${body.token}` }), accountId: body.account_id, email };
}
