// The inbound token bucket through the real local server: a burst is accepted whole, the sustained
// rate refills it, 429 carries the exact wait, and the bucket is shared through the table. TIME_SCALE
// 60 makes a minute last a second; the service's clock is stopped and moved by the tests, so every
// refill is counted exactly, however slow the machine. Expected figures are worked out by hand here.
// @moto: the token bucket: conditional ADD and SET on one item.
import { describe, expect, it } from 'vitest';
import { takeFromTable, takeToken, type InstanceBuckets } from '../../lib/integrations/ingest/token-bucket';
import { rateLimitsOf } from '../../lib/integrations/ingest/receive-webhook';
import { newId } from '../../lib/ids';
import { testClock } from '../support/dependencies';
import { useService, type TestService } from '../support/runtime';
import { createIntegration } from '../integrations/support';

let service: TestService;

useService(
  async (started) => {
    service = started;
  },
  { env: { TIME_SCALE: '60', INGEST_RATE_LIMIT_BURST: '2000', INGEST_RATE_LIMIT_PER_MINUTE: '600' } },
);

const post = (integration: { prefix_id: string }, i: number) =>
  service.anonymous.post(`/integration/${integration.prefix_id}`, { title: `burst ${i}`, id: `b-${i}` });

describe('the inbound token bucket', () => {
  it('accepts a whole burst, then refuses with the seconds until the next token', { tags: ['moto'] }, async () => {
    // 5 at once, then 1 a (scaled) minute: one token a second at TIME_SCALE 60.
    const warm = await createIntegration(service.admin, {});
    expect((await post(warm, 0)).status).toBe(202);
    const integration = await createIntegration(service.admin, { option_rate_limit_burst: 5, option_rate_limit_per_minute: 1 });
    testClock.freeze();
    const statuses = await Promise.all(Array.from({ length: 5 }, (_, i) => post(integration, i).then((r) => r.status)));
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    const refused = await post(integration, 5);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.errors[0].message).toMatch(/burst 5, 1 per minute/);

    // 999 ms later the token is not there yet; at 1 s it is, and only one.
    testClock.advance(999);
    expect((await post(integration, 6)).status).toBe(429);
    testClock.advance(1);
    expect((await post(integration, 7)).status).toBe(202);
    expect((await post(integration, 8)).status).toBe(429);
  });

  it('refills at the sustained rate, not faster', async () => {
    // Burst 1, 6 a (scaled) minute: one token every 10 s / 60 = 166.7 ms. Four senders ask at once,
    // nine times, 167 ms apart: exactly one of them passes each time.
    const integration = await createIntegration(service.admin, { option_rate_limit_burst: 1, option_rate_limit_per_minute: 6 });
    testClock.freeze();
    const passedPerRound: number[] = [];
    for (let round = 0; round < 9; round++) {
      const statuses = await Promise.all(Array.from({ length: 4 }, (_, i) => post(integration, round * 4 + i).then((r) => r.status)));
      passedPerRound.push(statuses.filter((status) => status === 202).length);
      expect(statuses.filter((status) => status !== 202)).toEqual([429, 429, 429]);
      testClock.advance(167);
    }
    expect(passedPerRound).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('a token comes no sooner than its interval', { tags: ['moto'] }, async () => {
    const integration = await createIntegration(service.admin, { option_rate_limit_burst: 1, option_rate_limit_per_minute: 6 });
    testClock.freeze();
    expect((await post(integration, 0)).status).toBe(202);
    testClock.advance(166);
    expect((await post(integration, 1)).status).toBe(429);
    testClock.advance(1);
    expect((await post(integration, 2)).status).toBe(202);
  });

  it('defaults to the environment: a burst of INGEST_RATE_LIMIT_BURST at INGEST_RATE_LIMIT_PER_MINUTE', async () => {
    const integration = await createIntegration(service.admin, {});
    expect(rateLimitsOf({ options: {} })).toEqual({ burst: 2000, perMinute: 600, timeScale: 60 });
    // An integration that sets only its rate gets one minute of it as its burst.
    expect(rateLimitsOf({ options: { rate_limit_per_minute: 30 } })).toMatchObject({ burst: 30, perMinute: 30 });
    expect(rateLimitsOf({ options: { rate_limit_per_minute: 30, rate_limit_burst: 500 } })).toMatchObject({ burst: 500, perMinute: 30 });
    expect((await post(integration, 0)).status).toBe(202);
  });

  it('validates the options: positive whole numbers', async () => {
    for (const [field, value] of [
      ['option_rate_limit_burst', 0],
      ['option_rate_limit_burst', 'many'],
      ['option_rate_limit_per_minute', -5],
      ['option_rate_limit_burst', 1.5],
    ] as const) {
      const res = await service.admin.post('/api/v4/integrations', {
        name: 'x',
        urgency: 'low',
        integration_type_id: 'webhook',
        team_ids: [],
        [field]: value,
      });
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.errors.map((e: { message: string }) => e.message).join(' '), `${field}=${value}`).toContain(field);
    }
  });
});

describe('the shared bucket in the table', () => {
  it('never grants more than the burst to concurrent takers, whatever their lease sizes', { tags: ['moto'] }, async () => {
    const id = newId();
    // A rate so slow nothing refills during the test.
    const limits = { burst: 50, perMinute: 1 };
    const now = testClock.freeze();
    const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => takeFromTable(id, 1 + (i % 4), now, limits)));
    const granted = takes.reduce((sum, t) => sum + ('granted' in t ? t.granted : 0), 0);
    expect(granted).toBe(50);
    const refused = takes.filter((t) => 'nextTokenAt' in t);
    expect(refused.length).toBeGreaterThan(0);
    // Full until `tat` (50 minutes on); the next token comes one interval (1 minute) after the bucket had room for one.
    for (const t of refused) expect(t).toEqual({ nextTokenAt: now + 60_000, tat: now + 50 * 60_000 });
  });

  it('two instances draw from one bucket: what one leases, the other cannot take', { tags: ['moto'] }, async () => {
    const id = newId();
    const limits = { burst: 10, perMinute: 1 };
    const now = testClock.freeze();
    // Instance A (this process) takes 7 tokens, one request at a time.
    for (let i = 0; i < 7; i++) expect(await takeToken(id, limits, now)).toBeNull();
    // Instance B (another process, seen here as direct table takes) finds only 3 left.
    expect(await takeFromTable(id, 5, now, limits)).toMatchObject({ granted: 3 });
    // Ten tokens out of ten, a minute each: full for ten minutes, the next token one minute from now.
    expect(await takeFromTable(id, 1, now, limits)).toEqual({ nextTokenAt: now + 60_000, tat: now + 600_000 });
    // Instance A, knowing only what it took itself, asks the table and is refused for a minute.
    expect(await takeToken(id, limits, now)).toEqual({ retryAfterSeconds: 60 });
    // A third instance, which knows nothing yet, is refused alike.
    const third: InstanceBuckets = new Map();
    expect(await takeToken(id, limits, now, third)).toEqual({ retryAfterSeconds: 60 });
  });

  it('drops a lease taken under limits that have since been lowered', async () => {
    const id = newId();
    const generous = { burst: 2000, perMinute: 60_000 }; // a lease of 10 once the instance is busy (2000 / 200)
    const now = testClock.freeze();
    expect(await takeToken(id, generous, now)).toBeNull();
    expect(await takeToken(id, generous, now)).toBeNull(); // busy: leases 10, uses 1
    // The integration is updated to 1 a minute: the 9 leased tokens must not keep flowing. The shared
    // bucket holds 11 of the old 1-ms tokens, so under the new limits it is full for 11 ms: 1 s.
    const strict = { burst: 1, perMinute: 1 };
    expect(await takeToken(id, strict, now)).toEqual({ retryAfterSeconds: 1 });
  });

  it('refuses from what it knows without asking the table again, and never past the true next token', async () => {
    const id = newId();
    const limits = { burst: 2, perMinute: 60, timeScale: 60 }; // a token every second / 60 ≈ 16.7 ms
    const start = testClock.freeze();
    expect(await takeToken(id, limits, start)).toBeNull();
    expect(await takeToken(id, limits, start)).toBeNull();
    const first = await takeToken(id, limits, start);
    expect(first).toEqual({ retryAfterSeconds: 1 });
    // One token's time later, one request passes again: the local block never outlasts the bucket.
    expect(await takeToken(id, limits, start + 17)).toBeNull();
    expect(await takeToken(id, limits, start + 17)).toEqual({ retryAfterSeconds: 1 });
  });
});
