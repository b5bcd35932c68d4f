// The inbound token bucket through the real local server: a burst is accepted whole, the sustained
// rate refills it, 429 carries the exact wait, and the bucket is shared through the table. TIME_SCALE
// 60 makes a minute last a second, so refills are seen in milliseconds.
import { describe, expect, it } from 'vitest';
import { emissionIntervalMs, forgetLocalBuckets, takeFromTable, takeToken } from '../../lib/integrations/ingest/token-bucket';
import { rateLimitsOf } from '../../lib/integrations/ingest/receive-webhook';
import { newId } from '../../lib/ids';
import { useService, type TestService } from '../support/runtime';
import { createIntegration } from '../integrations/support';

const TIME_SCALE = 60;
let service: TestService;

useService(
  async (started) => {
    service = started;
  },
  { env: { TIME_SCALE: String(TIME_SCALE), INGEST_RATE_LIMIT_BURST: '2000', INGEST_RATE_LIMIT_PER_MINUTE: '600' } },
);

const post = (integration: { prefix_id: string }, i: number) =>
  service.anonymous.post(`/integration/${integration.prefix_id}`, { title: `burst ${i}`, id: `b-${i}` });

describe('the inbound token bucket', () => {
  it('accepts a whole burst, then refuses with the seconds until the next token', async () => {
    // 5 at once, then 1 a (scaled) minute: one token a second at TIME_SCALE 60.
    const warm = await createIntegration(service.admin, {});
    expect((await post(warm, 0)).status).toBe(202);
    const integration = await createIntegration(service.admin, { option_rate_limit_burst: 5, option_rate_limit_per_minute: 1 });
    const statuses = await Promise.all(Array.from({ length: 5 }, (_, i) => post(integration, i).then((r) => r.status)));
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    const refused = await post(integration, 5);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.errors[0].message).toMatch(/burst 5, 1 per minute/);

    await new Promise((r) => setTimeout(r, 1_100));
    expect((await post(integration, 6)).status).toBe(202);
  });

  it('refills at the sustained rate, not faster', async () => {
    // Burst 1, 6 a (scaled) minute: one token every 167 ms. Four senders keep asking for 1.5 s.
    const integration = await createIntegration(service.admin, { option_rate_limit_burst: 1, option_rate_limit_per_minute: 6 });
    const started = Date.now();
    let accepted = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (Date.now() - started < 1_500) {
          if ((await post(integration, accepted + refused)).status === 202) accepted++;
          else refused++;
        }
      }),
    );
    const elapsed = Date.now() - started;
    // The first token at once, then one per 10 s / TIME_SCALE: never more, and not far fewer.
    const allowed = 1 + Math.floor(elapsed / (10_000 / TIME_SCALE));
    expect(accepted).toBeLessThanOrEqual(allowed);
    // (Not far fewer: a loaded machine's round trips may outlast a token's interval, hence the slack.)
    expect(accepted).toBeGreaterThanOrEqual(Math.floor(allowed * 0.4));
    expect(refused).toBeGreaterThan(accepted);
  });

  it('defaults to the environment: a burst of INGEST_RATE_LIMIT_BURST at INGEST_RATE_LIMIT_PER_MINUTE', async () => {
    const integration = await createIntegration(service.admin, {});
    expect(rateLimitsOf({ options: {} })).toEqual({ burst: 2000, perMinute: 600, timeScale: TIME_SCALE });
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
  it('never grants more than the burst to concurrent takers, whatever their lease sizes', async () => {
    const id = newId();
    // A rate so slow nothing refills during the test.
    const limits = { burst: 50, perMinute: 1 };
    const now = Date.now();
    const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => takeFromTable(id, 1 + (i % 4), now, limits)));
    const granted = takes.reduce((sum, t) => sum + ('granted' in t ? t.granted : 0), 0);
    expect(granted).toBe(50);
    const refused = takes.filter((t) => 'nextTokenAt' in t);
    expect(refused.length).toBeGreaterThan(0);
    // Full until `tat`; the next token comes one interval after the bucket had room for one.
    for (const t of refused) expect('nextTokenAt' in t && t.nextTokenAt).toBeCloseTo(now + emissionIntervalMs(limits), -1);
  });

  it('two instances draw from one bucket: what one leases, the other cannot take', async () => {
    const id = newId();
    const limits = { burst: 10, perMinute: 1 };
    const now = Date.now();
    // Instance A (this process) takes 7 tokens, one request at a time.
    for (let i = 0; i < 7; i++) expect(await takeToken(id, limits, now)).toBeNull();
    // Instance B (another process, seen here as direct table takes) finds only 3 left.
    expect(await takeFromTable(id, 5, now, limits)).toMatchObject({ granted: 3 });
    expect(await takeFromTable(id, 1, now, limits)).toMatchObject({ nextTokenAt: expect.any(Number) });
    // Instance A, knowing only what it took itself, asks the table and is refused for a minute.
    // (59 when a second of the real clock passed meanwhile on a loaded machine.)
    expect((await takeToken(id, limits, now))?.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    forgetLocalBuckets();
    const refusal = await takeToken(id, limits, now);
    expect(refusal?.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refusal?.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('drops a lease taken under limits that have since been lowered', async () => {
    const id = newId();
    const generous = { burst: 2000, perMinute: 60_000 }; // a lease of 100 once the instance is busy
    const now = Date.now();
    expect(await takeToken(id, generous, now)).toBeNull();
    expect(await takeToken(id, generous, now)).toBeNull(); // busy: leases 100, uses 1
    // The integration is updated to 1 a minute: the 99 leased tokens must not keep flowing.
    const strict = { burst: 1, perMinute: 1 };
    expect(await takeToken(id, strict, now)).toEqual({ retryAfterSeconds: expect.any(Number) });
  });

  it('refuses from what it knows without asking the table again, and never past the true next token', async () => {
    const id = newId();
    const limits = { burst: 2, perMinute: 60, timeScale: 60 }; // a token every second / 60 ≈ 16.7 ms
    const start = Date.now();
    expect(await takeToken(id, limits, start)).toBeNull();
    expect(await takeToken(id, limits, start)).toBeNull();
    const first = await takeToken(id, limits, start);
    expect(first).toEqual({ retryAfterSeconds: 1 });
    // One token's time later, one request passes again: the local block never outlasts the bucket.
    expect(await takeToken(id, limits, start + 17)).toBeNull();
    expect(await takeToken(id, limits, start + 17)).toEqual({ retryAfterSeconds: 1 });
  });
});
