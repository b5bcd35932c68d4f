// Benchmark of the inbound rate limit (issue 10, item 3) on the real local server: the token bucket
// per integration (default burst 2 000, sustained 600 a minute).
//   1. burst: 2 000 webhooks posted at once to a fresh integration are accepted whole; 500 more
//      right after get only what refilled meanwhile;
//   2. runaway sender: 5 000 a minute for 3 minutes is held to the sustained rate: 2 000 + 600 in
//      the first minute, 600 in each later one.
// Minutes are scaled: the server runs with TIME_SCALE (default 10, so a minute lasts 6 s and the
// run takes ~20 s, not 3 minutes); the limiter's clock is the server's real clock divided by it, and
// the sender's pace is scaled the same way, so every count is what a real minute would see.
// The senders run on worker threads (bench/paced-sender.mjs), off the server's event loop.
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { startRuntime, type Runtime } from '../infra/local/runtime';
import { countLimiterWrites } from './rate-writes';
import { round, runWhenMain } from './support';

const BURST = 2_000;
const PER_MINUTE = 600;
const SENDER_PER_MINUTE = 5_000;
const MINUTES = 3;

interface Paced {
  offsets: Float64Array;
  statuses: Uint16Array;
  retryAfters: Float64Array;
  seconds: number;
}

function paced(url: string, perSecond: number, count: number, concurrency = 64): Promise<Paced> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./paced-sender.mjs', import.meta.url), { workerData: { url, perSecond, count, concurrency } });
    worker.once('message', (result: Paced) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

async function integration(runtime: Runtime, apiKey: string): Promise<string> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const users = (await (await fetch(`${runtime.url}/api/v4/account_users`, { headers })).json()) as { data: Array<{ id: string }> };
  const res = await fetch(`${runtime.url}/api/v4/integrations`, {
    method: 'POST',
    headers,
    // No rate options: the environment's defaults apply.
    body: JSON.stringify({
      name: `limited ${randomBytes(3).toString('hex')}`,
      urgency: 'low',
      integration_type_id: 'webhook',
      account_user_ids: [users.data[0].id],
    }),
  });
  const created = (await res.json()) as { url: string };
  return created.url;
}

export async function benchIngestLimits(timeScale = Number(process.env.BENCH_TIME_SCALE ?? 10)): Promise<Record<string, number | string>> {
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-bench-limits-${randomBytes(4).toString('hex')}`,
    // The limiter is measured, not the workers: accepted webhooks wait in the queue.
    pollerConcurrency: 0,
    scheduleIntervalMs: 3_600_000,
    env: {
      OUTBOX: 'none',
      LOG_LEVEL: 'error',
      TIME_SCALE: String(timeScale),
      INGEST_RATE_LIMIT_BURST: String(BURST),
      INGEST_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
    },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  try {
    const writes = countLimiterWrites();
    const minuteMs = 60_000 / timeScale;

    // Warm-up (module loading, JIT) on an integration of its own, so the burst measures the limiter.
    await paced(await integration(runtime, apiKey), 1e9, 300);
    const warmWrites = writes.value();

    // 1. A burst: as fast as the sender can, 64 in flight.
    const burstUrl = await integration(runtime, apiKey);
    const burstStarted = performance.now();
    const burst = await paced(burstUrl, 1e9, BURST);
    const burstAccepted = burst.statuses.filter((s) => s === 202).length;
    const burstWrites = writes.value() - warmWrites;
    const after = await paced(burstUrl, 1e9, 500);
    const afterAccepted = after.statuses.filter((s) => s === 202).length;
    // What the bucket could have refilled from the burst's start to the end of the extra 500.
    const refillBound = Math.floor((performance.now() - burstStarted) / (minuteMs / PER_MINUTE));

    // 2. A runaway sender at 5 000 a (scaled) minute for 3 minutes.
    const floodUrl = await integration(runtime, apiKey);
    const writesBefore = writes.value();
    const count = SENDER_PER_MINUTE * MINUTES;
    const flood = await paced(floodUrl, (SENDER_PER_MINUTE * timeScale) / 60, count);
    // Counted per (scaled) minute of sending; a sender slower than asked just takes more minutes.
    const minutes = Math.max(MINUTES, Math.floor(flood.offsets[count - 1] / minuteMs) + 1);
    const perMinute = Array.from({ length: minutes }, () => 0);
    const sentPerMinute = Array.from({ length: minutes }, () => 0);
    const retryAfter: number[] = [];
    for (let i = 0; i < count; i++) {
      const minute = Math.floor(flood.offsets[i] / minuteMs);
      sentPerMinute[minute]++;
      if (flood.statuses[i] === 202) perMinute[minute]++;
      else if (flood.statuses[i] === 429) retryAfter.push(flood.retryAfters[i]);
    }
    const floodAccepted = perMinute.reduce((a, b) => a + b, 0);
    // The sustained rate: after the first minute (burst + refill), over the time the sender kept sending.
    const sendingMinutes = (flood.offsets[count - 1] - minuteMs) / minuteMs;
    const sustained = (floodAccepted - perMinute[0]) / sendingMinutes;
    const other = count - floodAccepted - retryAfter.length;

    return {
      'limits.time_scale': timeScale,
      'limits.burst.posted': BURST,
      'limits.burst.accepted': burstAccepted,
      'limits.burst.target_accepted': BURST,
      'limits.burst.seconds': round(burst.seconds, 2),
      'limits.burst.limiter_writes': burstWrites,
      'limits.burst.requests_per_limiter_write': round(burstAccepted / Math.max(1, burstWrites), 1),
      'limits.after_burst.posted': 500,
      'limits.after_burst.accepted': afterAccepted,
      'limits.after_burst.refill_bound': refillBound,
      'limits.flood.sender_per_minute': SENDER_PER_MINUTE,
      'limits.flood.achieved_per_minute': round((count / flood.seconds) * (60 / timeScale)),
      'limits.flood.posted_per_minute': JSON.stringify(sentPerMinute),
      'limits.flood.accepted_per_minute': JSON.stringify(perMinute),
      'limits.flood.accepted_total': floodAccepted,
      'limits.flood.target_total': Math.round(BURST + PER_MINUTE * (1 + sendingMinutes)),
      'limits.flood.sustained_per_minute': round(sustained, 1),
      'limits.flood.sustained_target_per_minute': PER_MINUTE,
      'limits.flood.sustained_ratio': round(sustained / PER_MINUTE, 3),
      'limits.flood.refused_429': retryAfter.length,
      'limits.flood.other_statuses': other,
      'limits.flood.retry_after_max_s': retryAfter.length ? Math.max(...retryAfter) : 0,
      'limits.flood.limiter_writes': writes.value() - writesBefore,
      'limits.flood.limiter_writes_per_request': round((writes.value() - writesBefore) / count, 4),
    };
  } finally {
    await runtime.stop();
  }
}

runWhenMain(import.meta.url, benchIngestLimits);
