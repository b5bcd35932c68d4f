// Benchmark of the webhook pipeline on the local runtime (one process: API, emulators, workers):
//   1. accept rate: POST /integration/:id answered 202, concurrency 32, for 10 s (p50/p99 latency);
//   2. end to end: 10 000 distinct webhooks → 10 000 alerts (alerts/s, time to the last one), with
//      lost and duplicated alerts counted;
//   3. the same 10 000 posted again (sender retries): still 10 000 alerts, each with dedup_count 2.
// Targets on a 2-core machine: ≥ 500 accepted/s, ≥ 200 alerts/s end to end, none lost or duplicated.
import { envNumber, runWhenMain } from './support';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startRuntime, type Runtime } from '../infra/local/runtime';
import type { AlertRecord } from '../lib/alerts/records';
import { readCounts } from '../lib/store/counters';
import { partitionOf, queryAll } from '../lib/store/items';
import { typeOf } from '../lib/entities';

const CONCURRENCY = 32;
const ACCEPT_SECONDS = 10;
const END_TO_END = 10_000;

interface Options {
  pollerConcurrency?: number;
  endToEnd?: number;
  acceptSeconds?: number;
}

// One keep-alive pool per run, like a sender reusing its connections.
let agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

function payload(id: string): string {
  return JSON.stringify({
    event_type: 'create',
    id,
    title: `Bench alert ${id}`,
    description: 'load test',
    urgency: 'low',
    tags: ['bench'],
  });
}

/** Posts `ids` with CONCURRENCY requests in flight; returns statuses and latencies. */
async function postAll(url: URL, ids: string[]): Promise<{ statuses: Map<number, number>; latencies: number[] }> {
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const started = performance.now();
        const status = await post(url, payload(id));
        latencies.push(performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { statuses, latencies };
}

async function queueIdle(runtime: Runtime, sqs: SQSClient): Promise<boolean> {
  for (const queue of [runtime.queues.ingest.url, runtime.queues.routing.url]) {
    const out = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queue,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    const a = out.Attributes ?? {};
    if (Number(a.ApproximateNumberOfMessages ?? 0) + Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) > 0) return false;
  }
  return true;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, pollMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return false;
}

async function alertsOf(accountId: string): Promise<AlertRecord[]> {
  const alerts: AlertRecord[] = [];
  for await (const item of queryAll(partitionOf(accountId, typeOf('alert')))) alerts.push(item as unknown as AlertRecord);
  return alerts;
}

interface Service {
  runtime: Runtime;
  sqs: SQSClient;
  accountId: string;
  url: URL;
  /** A function, not a method: callers take it out of the object. */
  stop: () => Promise<void>;
}

/** A fresh local runtime (in-memory emulators) with one webhook integration. */
async function startService(pollerConcurrency: number): Promise<Service> {
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-bench-${randomBytes(4).toString('hex')}`,
    pollerConcurrency,
    scheduleIntervalMs: 3_600_000,
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  const sqs = new SQSClient({
    endpoint: runtime.emulators.sqsEndpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    useQueueUrlAsEndpoint: false,
  });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const users = (await (await fetch(`${runtime.url}/api/v4/account_users`, { headers })).json()) as { data: Array<{ id: string }> };
  const created = await fetch(`${runtime.url}/api/v4/integrations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'bench',
      urgency: 'low',
      integration_type_id: 'webhook',
      account_user_ids: [users.data[0].id],
      // The benchmark measures the pipeline, not the limiter: a limit it never reaches.
      option_rate_limit_per_minute: 10_000_000,
      option_rate_limit_burst: 1_000_000,
    }),
  });
  const integration = (await created.json()) as { account_id: string; prefix_id: string };
  return {
    runtime,
    sqs,
    accountId: integration.account_id,
    url: new URL(`${runtime.url}/integration/${integration.prefix_id}`),
    stop: async () => {
      sqs.destroy();
      await runtime.stop();
    },
  };
}

/**
 * 1. Accept rate of the inbound endpoint alone. Deployed, the inbound function and the workers are
 * separate Lambdas; the local runtime runs them in one thread, so the workers are left off here
 * (pollerConcurrency 0) and the endpoint is measured on its own.
 */
async function acceptRate(seconds: number): Promise<Record<string, number>> {
  const service = await startService(0);
  try {
    const latencies: number[] = [];
    let accepted = 0;
    let refused = 0;
    let n = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() - started < seconds * 1000) {
          const at = performance.now();
          const status = await post(service.url, payload(`accept-${n++}`));
          latencies.push(performance.now() - at);
          if (status === 202) accepted++;
          else refused++;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      'ingest.accept.requests': accepted + refused,
      'ingest.accept.refused': refused,
      'ingest.accept.per_second': round(accepted / elapsed),
      'ingest.accept.p50_ms': round(percentile(latencies, 50), 2),
      'ingest.accept.p99_ms': round(percentile(latencies, 99), 2),
      'ingest.accept.target_per_second': 500,
    };
  } finally {
    await service.stop();
  }
}

/** 2 and 3: distinct webhooks to alerts, end to end, then the same webhooks again. */
export async function endToEnd(count: number, pollerConcurrency: number): Promise<Record<string, number | string>> {
  const { runtime, sqs, accountId, url, stop } = await startService(pollerConcurrency);
  try {
    const ids = Array.from({ length: count }, (_, i) => `e2e-${i}`);
    const started = performance.now();
    const first = await postAll(url, ids);
    const postedSeconds = (performance.now() - started) / 1000;
    await waitFor(async () => ((await readCounts(accountId, typeOf('alert'))).total ?? 0) >= count, 600_000, 20);
    const lastVisibleSeconds = (performance.now() - started) / 1000;
    await waitFor(() => queueIdle(runtime, sqs), 600_000, 250);

    const byId = (alerts: AlertRecord[]) => {
      const map = new Map<string, AlertRecord[]>();
      for (const alert of alerts) {
        if (alert.thirdparty_id?.startsWith('e2e-')) map.set(alert.thirdparty_id, [...(map.get(alert.thirdparty_id) ?? []), alert]);
      }
      return map;
    };
    const perId = byId(await alertsOf(accountId));
    const lost = ids.filter((id) => !perId.has(id)).length;
    const duplicated = [...perId.values()].reduce((sum, list) => sum + list.length - 1, 0);

    // 3. Sender retries: the same webhooks again.
    const retryStart = performance.now();
    const second = await postAll(url, ids);
    await waitFor(
      async () => {
        const alerts = [...byId(await alertsOf(accountId)).values()].flat();
        return alerts.length >= count && alerts.every((a) => a.dedup_count >= 2);
      },
      600_000,
      1000,
    );
    const retrySeconds = (performance.now() - retryStart) / 1000;
    await waitFor(() => queueIdle(runtime, sqs), 600_000, 250);
    const afterRetry = [...byId(await alertsOf(accountId)).values()].flat();
    const counts = new Map<number, number>();
    for (const alert of afterRetry) counts.set(alert.dedup_count, (counts.get(alert.dedup_count) ?? 0) + 1);

    const refused = [...first.statuses, ...second.statuses].filter(([s]) => s !== 202).reduce((sum, [, c]) => sum + c, 0);
    first.latencies.sort((a, b) => a - b);
    return {
      'ingest.e2e.webhooks': count,
      'ingest.e2e.poller_concurrency': pollerConcurrency,
      'ingest.e2e.refused': refused,
      'ingest.e2e.accepted_per_second_with_workers': round(count / postedSeconds),
      'ingest.e2e.post_p50_ms': round(percentile(first.latencies, 50), 2),
      'ingest.e2e.post_p99_ms': round(percentile(first.latencies, 99), 2),
      'ingest.e2e.last_visible_s': round(lastVisibleSeconds, 2),
      'ingest.e2e.alerts_per_second': round(count / lastVisibleSeconds),
      'ingest.e2e.target_alerts_per_second': 200,
      'ingest.e2e.lost': lost,
      'ingest.e2e.duplicated': duplicated,
      'ingest.retry.alerts': afterRetry.length,
      'ingest.retry.with_dedup_count_2': counts.get(2) ?? 0,
      'ingest.retry.dedup_counts': JSON.stringify(Object.fromEntries(counts)),
      'ingest.retry.seconds': round(retrySeconds, 2),
    };
  } finally {
    await stop();
  }
}

export async function benchIngest(options: Options = {}): Promise<Record<string, number | string>> {
  agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const accept = await acceptRate(options.acceptSeconds ?? ACCEPT_SECONDS);
  const e2e = await endToEnd(options.endToEnd ?? END_TO_END, options.pollerConcurrency ?? 8);
  agent.destroy();
  return { ...accept, ...e2e };
}

runWhenMain(import.meta.url, () =>
  benchIngest({
    pollerConcurrency: envNumber('BENCH_POLLERS'),
    endToEnd: envNumber('BENCH_E2E'),
    acceptSeconds: envNumber('BENCH_ACCEPT_SECONDS'),
  }),
);
