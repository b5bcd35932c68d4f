// Benchmark of the API's request limits (issue 23) on the real local server, side by side in one run:
//   1. overhead: GET /api/v4/account_users/:id with the limiter on ÷ off (p50; target ≤ 1.1): 100
//      pairs of 20 requests a side (the limiter switched through lib/dependencies.ts), the median of
//      the pairs' p50 ratios; limits so high nothing is refused, so every request pays the whole limiter;
//   2. writes: the limiter's table writes per request while five API keys of one account each send
//      15 a second (75 a second in all) under the default limits (1 200 a minute per key, 6 000 per
//      account): nothing refused, and leases make writes rare; and for a quiet client (one request
//      every 250 ms);
//   3. fairness: each account may make 600 requests a minute; account A floods at 10× that (100 a
//      second, 16 at a time) while account B sends 5 a second: B's p99 with the flood ÷ without it
//      (target ≤ 1.5), in 20 pairs of 8-second rounds, each side first in turn, the p99 pooled over
//      every request of B on each side (800 without, 600 with; the 2 s in which A spends the burst
//      refilled while it was quiet are reported apart, as the onset); and what A's refusals cost the
//      table (writes per admitted request).
// Load comes from worker threads (bench/load-thread.mjs), off the server's event loop; each account's
// from a thread of its own.
import { randomBytes } from 'node:crypto';
import { startRuntime, type Runtime } from '../infra/local/runtime';
import { createAccountWithAdmin } from '../lib/accounts/create-account';
import { replaceDependencies } from '../lib/dependencies';
import { countLimiterWrites } from './rate-writes';
import { LoadThread, median, NO_PERIODIC_SWEEP, percentile, round, runWhenMain, type LoadResult, type LoadTask } from './support';

async function start(env: Record<string, string>): Promise<{ runtime: Runtime; apiKey: string }> {
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-bench-requests-${randomBytes(4).toString('hex')}`,
    scheduleIntervalMs: NO_PERIODIC_SWEEP,
    env: { OUTBOX: 'none', LOG_LEVEL: 'error', ...env },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  return { runtime, apiKey };
}

async function post<T>(runtime: Runtime, token: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${runtime.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type HttpTask = Extract<LoadTask, { kind: 'http' }>;

/** `count` GETs of `path` with `token`: one at a time, or as `pace` says. */
const gets = (
  baseUrl: string,
  path: string,
  token: string,
  count: number,
  pace: { perSecond?: number; concurrency?: number } = {},
): HttpTask => ({
  kind: 'http',
  baseUrl,
  concurrency: pace.concurrency ?? 1,
  perSecond: pace.perSecond,
  ops: Array.from({ length: count }, () => ({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } })),
});

function statusCounts(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function overheadAndWrites(): Promise<Record<string, number | string>> {
  const unlimited = { API_RATE_LIMIT_PER_MINUTE: '10000000', API_RATE_LIMIT_BURST: '10000000', ACCOUNT_RATE_LIMIT_PER_MINUTE: '10000000' };
  const { runtime, apiKey } = await start(unlimited);
  const counter = countLimiterWrites();
  const load = new LoadThread();
  try {
    const me = runtime.created!.admin;
    // Short pairs, each side first in turn, judged by the median of the pairs' ratios: the machine's
    // load moves from one second to the next (an on-vs-on run of long rounds gave 1.14, and on ÷ off
    // anywhere from 0.5 to 1.26), and a pair's two halves see the same load.
    const task = gets(runtime.url, `/api/v4/account_users/${me.id}`, apiKey, 20);
    const on: number[] = [];
    const off: number[] = [];
    const ratios: number[] = [];
    let onRequests = 0;
    let onWrites = 0;
    const runWith = async () => {
      const writesBefore = counter.value();
      const result = await load.run(task);
      return { result, writes: counter.value() - writesBefore };
    };
    const runWithout = async () => {
      const restore = replaceDependencies({ requestLimits: 'off' });
      try {
        return await load.run(task);
      } finally {
        restore();
      }
    };
    for (let pair = 0; pair < 110; pair++) {
      let withLimits: Awaited<ReturnType<typeof runWith>>;
      let without: Awaited<ReturnType<typeof runWithout>>;
      if (pair % 2 === 0) {
        withLimits = await runWith();
        without = await runWithout();
      } else {
        without = await runWithout();
        withLimits = await runWith();
      }
      if (pair < 10) continue; // warm-up
      if (withLimits.result.statuses.some((s) => s !== 200) || without.statuses.some((s) => s !== 200))
        throw new Error('a GET did not answer 200');
      on.push(...withLimits.result.latencies);
      off.push(...without.latencies);
      ratios.push(median(withLimits.result.latencies) / median(without.latencies));
      onRequests += withLimits.result.latencies.length;
      onWrites += withLimits.writes;
    }
    return {
      'overhead.p50_on_ms': round(median(on)),
      'overhead.p50_off_ms': round(median(off)),
      'overhead.ratio_on_off_p50': round(median(ratios), 3),
      'overhead.ratio_of_overall_p50s': round(median(on) / median(off), 3),
      'overhead.target_ratio': 1.1,
      'overhead.limiter_writes_per_request': round(onWrites / onRequests, 4),
    };
  } finally {
    await load.close();
    await runtime.stop();
  }
}

async function writesAtDefaults(): Promise<Record<string, number | string>> {
  // The defaults of the contract (the runtime's env wins over bench/support.ts's unlimited ones).
  const { runtime, apiKey } = await start({
    API_RATE_LIMIT_PER_MINUTE: '1200',
    API_RATE_LIMIT_BURST: '200',
    ACCOUNT_RATE_LIMIT_PER_MINUTE: '6000',
  });
  const counter = countLimiterWrites();
  const loads = Array.from({ length: 5 }, () => new LoadThread());
  try {
    const me = runtime.created!.admin;
    const keys = await Promise.all(
      loads.map((_, i) => post<{ token: string }>(runtime, apiKey, '/api/v4/api_keys', { name: `bench ${i}` }).then((k) => k.token)),
    );
    const path = `/api/v4/account_users/${me.id}`;
    const before = counter.value();
    const results = await Promise.all(
      keys.map((key, i) => loads[i].run(gets(runtime.url, path, key, 150, { perSecond: 15, concurrency: 4 }))),
    );
    const busyWrites = counter.value() - before;
    const statuses = results.flatMap((r) => r.statuses);

    const quietBefore = counter.value();
    const quiet = await loads[0].run(gets(runtime.url, path, keys[0], 40, { perSecond: 4 }));
    const quietWrites = counter.value() - quietBefore;
    return {
      'writes.busy_requests': statuses.length,
      'writes.busy_statuses': JSON.stringify(statusCounts(statuses)),
      'writes.busy_limiter_writes': busyWrites,
      'writes.busy_writes_per_request': round(busyWrites / statuses.length, 4),
      'writes.busy_p50_ms': round(median(results.flatMap((r) => r.latencies))),
      'writes.quiet_requests': quiet.statuses.length,
      'writes.quiet_writes_per_request': round(quietWrites / quiet.statuses.length, 4),
      'writes.target_per_request': 1,
    };
  } finally {
    await Promise.all(loads.map((l) => l.close()));
    await runtime.stop();
  }
}

/** When each op of a load result started (epoch ms): its answer less its latency. */
const startedAt = (result: LoadResult) => result.answeredAt.map((answered, i) => answered - result.latencies[i]);

const p99 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    99,
  );

async function fairness(): Promise<Record<string, number | string>> {
  const { runtime, apiKey } = await start({
    API_RATE_LIMIT_PER_MINUTE: '600',
    API_RATE_LIMIT_BURST: '100',
    ACCOUNT_RATE_LIMIT_PER_MINUTE: '600',
  });
  const counter = countLimiterWrites();
  // Each account's client on a worker thread of its own, with its own connections: A's flood
  // shares neither a client event loop nor a socket with B, as two tenants' clients would not.
  const quietThread = new LoadThread();
  const floodThread = new LoadThread();
  try {
    // Account A: a second account with its own admin key; account B: the bootstrap account.
    const floodKey = `flood-key-${randomBytes(16).toString('hex')}`;
    await createAccountWithAdmin({ accountName: 'Flood', name: 'Flood Admin', email: 'flood@example.com', apiKey: floodKey });
    const floodUsers = (await (
      await fetch(`${runtime.url}/api/v4/account_users`, { headers: { authorization: `Bearer ${floodKey}` } })
    ).json()) as {
      data: { id: string }[];
    };
    const me = runtime.created!.admin;

    const PAIRS = 20;
    const ROUND_SECONDS = 8;
    const FLOOD_PER_SECOND = 100; // 10× account A's 600 a minute
    const B_PER_SECOND = 5; // half of account B's own limit
    // A's first requests of a round spend the burst its bucket refilled while it was quiet (at most
    // 100 tokens, gone within 100 / (100 − 10) ≈ 1.1 s): A within its limits, not yet a flood.
    // B's requests sent in that time are reported apart (the onset); the target is judged on the rest,
    // while every request of A beyond its admitted rate is refused.
    const ONSET_MS = 2_000;
    const bTask = gets(runtime.url, `/api/v4/account_users/${me.id}`, apiKey, B_PER_SECOND * ROUND_SECONDS, {
      perSecond: B_PER_SECOND,
      concurrency: 2,
    });
    const floodTask = gets(runtime.url, `/api/v4/account_users/${floodUsers.data[0].id}`, floodKey, FLOOD_PER_SECOND * ROUND_SECONDS, {
      perSecond: FLOOD_PER_SECOND,
      concurrency: 16,
    });
    // Warm-up, both alone and together.
    await quietThread.run({ ...bTask, ops: bTask.ops.slice(0, 20) });
    await Promise.all([
      quietThread.run({ ...bTask, ops: bTask.ops.slice(0, 10) }),
      floodThread.run({ ...floodTask, ops: floodTask.ops.slice(0, 200) }),
    ]);

    const without: number[] = [];
    const withFlood: number[] = [];
    const onset: number[] = [];
    const pairRatios: number[] = [];
    const floodStatuses: number[] = [];
    let floodWrites = 0;
    let bDuringFlood = 0;
    const alone = async () => {
      const b = await quietThread.run(bTask);
      if (b.statuses.some((s) => s !== 200)) throw new Error("account B's requests were not all 200");
      return b.latencies;
    };
    const flooded = async () => {
      const writesBefore = counter.value();
      const floodStart = Date.now();
      const [b, flood] = await Promise.all([quietThread.run(bTask), floodThread.run(floodTask)]);
      floodWrites += counter.value() - writesBefore;
      if (b.statuses.some((s) => s !== 200)) throw new Error("account B's requests were not all 200");
      floodStatuses.push(...flood.statuses);
      bDuringFlood += b.latencies.length;
      const sent = startedAt(b);
      const held: number[] = [];
      b.latencies.forEach((latency, i) => (sent[i] - floodStart < ONSET_MS ? onset : held).push(latency));
      withFlood.push(...held);
      return held;
    };
    for (let pair = 0; pair < PAIRS; pair++) {
      // Each side first in turn: a pair's halves see the same machine, and neither always follows the other.
      let quiet: number[];
      let loud: number[];
      if (pair % 2 === 0) {
        quiet = await alone();
        loud = await flooded();
      } else {
        loud = await flooded();
        quiet = await alone();
      }
      without.push(...quiet);
      pairRatios.push(p99(loud) / p99(quiet));
    }
    const floodRequests = floodStatuses.length;
    const admitted = floodStatuses.filter((s) => s === 200).length + bDuringFlood;
    return {
      'fairness.flood_per_second': FLOOD_PER_SECOND,
      'fairness.flood_statuses': JSON.stringify(statusCounts(floodStatuses)),
      'fairness.b_per_second': B_PER_SECOND,
      'fairness.pairs': PAIRS,
      'fairness.b_requests_without': without.length,
      'fairness.b_requests_with_flood': withFlood.length,
      'fairness.b_requests_onset': onset.length,
      'fairness.b_p50_without_ms': round(median(without)),
      'fairness.b_p50_with_flood_ms': round(median(withFlood)),
      'fairness.b_p99_without_ms': round(p99(without)),
      'fairness.b_p99_with_flood_ms': round(p99(withFlood)),
      // The target: the pooled p99 of every request of B on each side.
      'fairness.b_p99_ratio_flood_without': round(p99(withFlood) / p99(without), 3),
      'fairness.target_ratio': 1.5,
      // The same judged round by round (each round's p99 of 30 is about its largest): the pairs' median.
      'fairness.b_p99_ratio_median_of_pairs': round(median(pairRatios), 3),
      'fairness.b_p99_onset_ms': round(p99(onset)),
      'fairness.b_p99_ratio_onset_without': round(p99(onset) / p99(without), 3),
      // Writes while A floods, B's takes included: what A's refusals cost shows as writes per admitted request.
      'fairness.limiter_writes_during_flood': floodWrites,
      'fairness.admitted_during_flood': admitted,
      'fairness.writes_per_admitted_request': round(floodWrites / Math.max(1, admitted), 4),
      'fairness.writes_per_request_during_flood': round(floodWrites / (floodRequests + bDuringFlood), 4),
      'fairness.requests_during_flood': floodRequests + bDuringFlood,
    };
  } finally {
    await quietThread.close();
    await floodThread.close();
    await runtime.stop();
  }
}

export async function benchRequestLimits(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  // LIMITS_PARTS=fairness (a comma-separated list) runs only those parts: one of them, measured again.
  const only = process.env.LIMITS_PARTS?.split(',');
  const parts = { overhead: overheadAndWrites, writes: writesAtDefaults, fairness };
  for (const [name, part] of Object.entries(parts)) {
    if (only && !only.includes(name)) continue;
    Object.assign(figures, await part());
    console.log(figures);
  }
  return figures;
}

runWhenMain(import.meta.url, benchRequestLimits);
