// The API's request limits through the real local server (docs/api.md#rate-limits): a credential's
// burst, then 429 with Retry-After and the RateLimit-* fields until the next token; the account's limit
// over all its credentials; a person's login tokens sharing one bucket; the public sign-in routes
// limited per source address; both interfaces' error bodies; another account untouched. The limits
// are set low by the environment (a credential: bursts of 5, 60 a minute, so a token a second; an
// account: 120 a minute, so its burst is 10 and a token comes every 500 ms). The service's clock is
// stopped and moved by the tests: every refill is counted exactly, however slow the machine.
// @moto: the buckets are conditional ADD and SET on one item each.
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../lib/api/authenticate';
import { sha256 } from '../../lib/auth/passwords';
import { admit, type LeaseInstance } from '../../lib/auth/token-leases';
import { newId } from '../../lib/ids';
import { createIntegration } from '../integrations/support';
import type { ApiClient, ApiResult } from '../support/api-client';
import type { AwsCall } from '../support/aws-calls';
import { holdAwsCalls, recordAwsCalls } from '../support/aws-gates';
import { testClock } from '../support/dependencies';
import { signupAccount, useService, type TestService } from '../support/runtime';

let service: TestService;

useService(
  (started) => {
    service = started;
  },
  { env: { API_RATE_LIMIT_PER_MINUTE: '60', API_RATE_LIMIT_BURST: '5', ACCOUNT_RATE_LIMIT_PER_MINUTE: '120' } },
);

const HOUR = 3_600_000;
let reached = 0;

/**
 * Stops the clock an hour past any time a test used before, so every bucket of earlier tests is full
 * again (the clock goes back to wall time between tests, and buckets remember the times they saw).
 */
function freshHour(): number {
  testClock.advance(Math.max(0, reached - testClock.now()) + HOUR);
  const now = testClock.freeze();
  reached = now + HOUR;
  return now;
}

/** A new account (signed up from this address) and an API key of its admin: two requests from the account's allowance. */
async function accountWithKey(name: string): Promise<{ key: ApiClient; session: ApiClient; accountId: string; token: string }> {
  const account = await signupAccount(service, name);
  const created = await account.client.post('/api/v4/api_keys', { name: 'script' });
  expect(created.status).toBe(201);
  return {
    key: account.client.with({ authorization: `Bearer ${created.body.token}` }),
    session: account.client,
    accountId: account.accountId,
    token: created.body.token,
  };
}

/** Whether a call reads or writes one of the account's request-limit buckets. */
const touchesBucketsOf = (accountId: string) => (call: AwsCall) => JSON.stringify(call.input).includes(`A#${accountId}#RATE`);

const fields = (res: ApiResult) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  retryAfter: res.headers.get('retry-after'),
});

describe('each credential', () => {
  it('starts a bucket again when the clock went back past any time a take could have left it', async () => {
    // Exhausted a day ahead of wall time, then the clock goes back (a test's reset, a host's clock
    // corrected): the bucket's stored time lies a day ahead; without the restart every request of
    // this key would be refused for that day.
    testClock.advance(Math.max(0, reached - testClock.now()) + 24 * HOUR);
    const ahead = testClock.freeze();
    reached = ahead + HOUR;
    const { key } = await accountWithKey('Clockback');
    for (let i = 0; i < 5; i++) expect((await key.get('/api/v4/account_users')).status).toBe(200);
    expect((await key.get('/api/v4/account_users')).status).toBe(429);

    testClock.reset();
    testClock.freeze();
    const after = await key.get('/api/v4/account_users');
    expect(after.status, after.text).toBe(200);
    expect(fields(after)).toMatchObject({ limit: '5', retryAfter: null });
    // A bucket restarted is a bucket like any other: its burst, then 429.
    for (let i = 0; i < 4; i++) expect((await key.get('/api/v4/account_users')).status).toBe(200);
    expect((await key.get('/api/v4/account_users')).status).toBe(429);
  });

  it('passes a burst, then answers 429 with Retry-After and the RateLimit fields until the next token', { tags: ['moto'] }, async () => {
    freshHour();
    const { key } = await accountWithKey('Burst');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await key.get('/api/v4/account_users'));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    // The key's bucket is the closest to refusing: its burst, what is left of it, and the seconds
    // until it is full again (a token a second).
    expect(answers.map(fields)).toEqual(
      [4, 3, 2, 1, 0].map((remaining) => ({ limit: '5', remaining: String(remaining), reset: String(5 - remaining), retryAfter: null })),
    );

    const refused = await key.get('/api/v4/account_users');
    expect(refused.status).toBe(429);
    expect(fields(refused)).toEqual({ limit: '5', remaining: '0', reset: '1', retryAfter: '1' });
    expect(refused.body).toEqual({
      code: 429,
      errors: [{ message: 'Too many requests for this API key (60 a minute, bursts of 5): try again in 1 s' }],
    });

    // The next token comes one second after the burst, not a millisecond sooner, and only one.
    testClock.advance(999);
    expect((await key.get('/api/v4/account_users')).status).toBe(429);
    testClock.advance(1);
    expect((await key.get('/api/v4/account_users')).status).toBe(200);
    expect((await key.get('/api/v4/account_users')).status).toBe(429);
  });

  it('refills at the sustained rate: three seconds bring three requests', async () => {
    freshHour();
    const { key } = await accountWithKey('Refill');
    for (let i = 0; i < 5; i++) expect((await key.get('/api/v4/account_users')).status).toBe(200);
    testClock.advance(3_000);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await key.get('/api/v4/account_users')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('answers the earlier interface in its own error body', { tags: ['moto'] }, async () => {
    freshHour();
    const { key } = await accountWithKey('Earlier');
    for (let i = 0; i < 5; i++) expect((await key.get('/alert')).status).toBe(200);
    const refused = await key.get('/alert');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      errors: [{ message: 'Too many requests for this API key (60 a minute, bursts of 5): try again in 1 s' }],
    });
    expect(fields(refused)).toMatchObject({ remaining: '0', retryAfter: '1' });
  });

  it('counts requests that fail too, and sends the fields with their errors', async () => {
    freshHour();
    const { key } = await accountWithKey('Errors');
    const missing = await key.get('/api/v4/alerts/01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(missing.status).toBe(404);
    expect(fields(missing)).toMatchObject({ limit: '5', remaining: '4' });
    const invalid = await key.get('/api/v4/alerts?limit=1000');
    expect(invalid.status).toBe(422);
    expect(fields(invalid)).toMatchObject({ remaining: '3' });
  });

  it("a person's login tokens share one bucket: signing in again gives no new allowance", async () => {
    freshHour();
    const account = await signupAccount(service, 'Sessions');
    const login = await service.anonymous.post('/public/login', { username: account.email, password: 'another secret password' });
    expect(login.status).toBe(200);
    const second = account.client.with({ authorization: `Bearer ${login.body.token}` });
    // Signup's token and the login's, alternately: five in all pass, the sixth is refused.
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? second : account.client).get('/api/v4/account_users')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await second.get('/api/v4/account_users');
    expect(refused.body.errors[0].message).toBe('Too many requests for your sessions (60 a minute, bursts of 5): try again in 1 s');
  });
});

describe('each account', () => {
  it('holds all its credentials together to its own limit', { tags: ['moto'] }, async () => {
    freshHour();
    const { key, session } = await accountWithKey('Shared');
    // Signup's request counted on the address; the key's creation on the account (1 of its 10).
    const keys = [key];
    for (let i = 0; i < 2; i++) {
      const created = await session.post('/api/v4/api_keys', { name: `script ${i}` });
      keys.push(session.with({ authorization: `Bearer ${created.body.token}` }));
    }
    // 3 of the account's 10 spent: 7 more pass, spread over three keys (none reaches its own 5).
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await keys[i % 3].get('/api/v4/account_users')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
    const refused = await keys[2].get('/api/v4/account_users');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toBe('Too many requests for this account (120 a minute): try again in 1 s');
    expect(fields(refused)).toEqual({ limit: '10', remaining: '0', reset: '1', retryAfter: '1' });
    // An account's token comes every 500 ms.
    testClock.advance(500);
    expect((await keys[2].get('/api/v4/account_users')).status).toBe(200);
  });

  it("one account's flood leaves another account's requests alone", { tags: ['moto'] }, async () => {
    freshHour();
    const flooding = await accountWithKey('Flooding');
    const quiet = await accountWithKey('Quiet');
    const flood = await Promise.all(Array.from({ length: 30 }, () => flooding.key.get('/api/v4/account_users').then((res) => res.status)));
    expect(flood.filter((status) => status === 200)).toHaveLength(5);
    expect(flood.filter((status) => status === 429)).toHaveLength(25);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await quiet.key.get('/api/v4/account_users'));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.at(-1)!.body.data.every((user: { account_id: string }) => user.account_id === quiet.accountId)).toBe(true);
  });
});

describe('the public sign-in routes', () => {
  it('are limited per source address with the credential limits', async () => {
    freshHour();
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await service.anonymous.post('/public/login', { username: 'nobody@example.com', password: 'wrong password' })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await service.anonymous.post('/public/login', { username: 'nobody@example.com', password: 'wrong password' });
    expect(refused.body.errors[0].message).toBe('Too many requests for this address (60 a minute, bursts of 5): try again in 1 s');
    // Not the requests of a caller with credentials: those count on its key.
    expect((await service.admin.get('/api/v4/account_users')).status).toBe(200);
  });

  it('inbound webhooks keep their own limit, not the API’s', async () => {
    freshHour();
    const { session } = await accountWithKey('Inbound');
    const integration = await createIntegration(session, {});
    // Twelve webhooks at one moment from this address: more than any API bucket here holds.
    const statuses = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await service.anonymous.post(`/integration/${integration.prefix_id}`, { title: `t${i}` })).status);
    expect(statuses.every((status) => status === 202)).toBe(true);
  });
});

describe('leases of more than one token', () => {
  it('pass exactly the bucket, then refuse without the table until a whole lease has come back', { tags: ['moto'] }, async () => {
    // Bursts of 40, 600 a minute (a token every 100 ms): leases of up to 4 tokens.
    const now = freshHour();
    const bucket = { key: { pk: `A#${newId()}#RATE`, sk: 'ACCOUNT' }, limits: { burst: 40, perMinute: 600 } };
    const instance: LeaseInstance = new Map();
    const answers = [];
    for (let i = 0; i < 45; i++) answers.push(await admit([bucket], now, instance));
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(40);
    // The first token is back after 100 ms, a lease of 4 after 400: refused until then.
    expect(answers.at(-1)).toMatchObject({ admitted: false, until: now + 400 });
    expect((await admit([bucket], now + 399, instance)).admitted).toBe(false);
    const after = [];
    for (let i = 0; i < 5; i++) after.push((await admit([bucket], now + 400, instance)).admitted);
    expect(after).toEqual([true, true, true, true, false]);
  });

  it('ask the table only for tokens it can have: no write that must fail, no read, when the bucket runs dry', async () => {
    const now = freshHour();
    const bucket = { key: { pk: `A#${newId()}#RATE`, sk: 'ACCOUNT' }, limits: { burst: 40, perMinute: 600 } };
    const instance: LeaseInstance = new Map();
    const record = recordAwsCalls();
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await admit([bucket], now, instance));
    // Leases taken ahead land after the requests that use them here: let the last one land.
    await Promise.all([...instance.values()].map((leased) => leased.taking ?? Promise.resolve()));
    const calls = record().filter((call) => JSON.stringify(call.input).includes(bucket.key.pk));
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(40);
    // Every write granted tokens: a write refused by its condition would have been followed by a read.
    expect(calls.filter((call) => call.operation !== 'UpdateItem')).toEqual([]);
    expect(calls.length).toBeLessThanOrEqual(20);
  });
});

describe('a refused credential', () => {
  it(
    'is refused by this instance alone until its next token, with the fields right, then taken from the table again',
    {
      tags: ['moto'],
    },
    async () => {
      freshHour();
      const flooding = await accountWithKey('Refused');
      const quiet = await accountWithKey('Neighbour');
      for (let i = 0; i < 5; i++) expect((await flooding.key.get('/api/v4/account_users')).status).toBe(200);

      const record = recordAwsCalls();
      const refused = [];
      for (let i = 0; i < 10; i++) refused.push(await flooding.key.get('/api/v4/account_users'));
      // Another account meanwhile: its own buckets, its own fields.
      const neighbour = await quiet.key.get('/api/v4/account_users');
      testClock.advance(999);
      const lastRefused = await flooding.key.get('/api/v4/account_users');
      const callsWhileRefused = record();

      expect([...refused, lastRefused].map((res) => res.status)).toEqual(Array(11).fill(429));
      // A token a second: the next comes one second after the burst, whoever asks in between.
      for (const res of [...refused, lastRefused]) expect(fields(res)).toEqual({ limit: '5', remaining: '0', reset: '1', retryAfter: '1' });
      expect(lastRefused.body.errors[0].message).toBe('Too many requests for this API key (60 a minute, bursts of 5): try again in 1 s');
      expect(callsWhileRefused.filter(touchesBucketsOf(flooding.accountId))).toEqual([]);
      expect(neighbour.status).toBe(200);
      expect(fields(neighbour)).toEqual({ limit: '5', remaining: '4', reset: '1', retryAfter: null });

      // The token's time: the table is asked again, and grants it.
      testClock.advance(1);
      const recordAfter = recordAwsCalls();
      const admitted = await flooding.key.get('/api/v4/account_users');
      const callsAfter = recordAfter();
      expect(admitted.status).toBe(200);
      expect(callsAfter.filter(touchesBucketsOf(flooding.accountId)).map((call) => call.operation)).toContain('UpdateItem');
      expect((await flooding.key.get('/api/v4/account_users')).status).toBe(429);
    },
  );
});

describe("another account's requests", () => {
  it("are answered while a flooding account's requests wait for its buckets' takes", { tags: ['moto'] }, async () => {
    freshHour();
    const flooding = await accountWithKey('Waiting');
    const quiet = await accountWithKey('Passing');
    // Every write to the flooding account's buckets is held: its requests cannot be decided.
    const gate = holdAwsCalls((call) => call.operation === 'UpdateItem' && touchesBucketsOf(flooding.accountId)(call));
    try {
      const flood = Array.from({ length: 8 }, () => flooding.key.get('/api/v4/account_users').then((res) => res.status));
      // The key's bucket and the account's, one take each.
      const held = [await gate.next(), await gate.next()];
      expect(held.map((call) => (call.input.Key as { sk: { S: string } }).sk.S).sort()).toEqual([
        'ACCOUNT',
        expect.stringMatching(/^KEY#/),
      ]);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await quiet.key.get('/api/v4/account_users'));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
      gate.open();
      const statuses = await Promise.all(flood);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    } finally {
      gate.open();
    }
  });
});

describe('requests of one credential that come together', () => {
  it('load the credential once between them when it is not cached', async () => {
    freshHour();
    const { token, accountId } = await accountWithKey('Together');
    const record = recordAwsCalls();
    // Eight at once, as a client with eight connections sends them: none finds the credential cached.
    const principals = await Promise.all(Array.from({ length: 8 }, () => authenticate({ authorization: `Bearer ${token}` })));
    const reads = record().filter((call) => {
      const input = JSON.stringify(call.input);
      return input.includes(sha256(token)) || input.includes(accountId);
    });
    expect(new Set(principals.map((principal) => `${principal.accountId} ${principal.apiKeyId}`))).toEqual(
      new Set([`${accountId} ${principals[0].apiKeyId}`]),
    );
    expect(principals[0].apiKeyId).toBeDefined();
    // The key's pointer, then the account user and the key in one batch.
    expect(reads.map((call) => call.operation).sort()).toEqual(['BatchGetItem', 'GetItem']);
  });
});
