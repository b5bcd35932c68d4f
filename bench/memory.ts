// Benchmark of the local runtime's memory on `npm start` defaults (data on disk, paging on: a team
// with one person on call, every webhook an alert that pages them):
//   idle → N webhooks → 2N webhooks → a rest of SETTLE seconds; at each point the process's RSS,
//   the main thread's heap/external/arrayBuffers (functions, fauxqs) and the dynalite thread's.
// The figure that matters is the slope: RSS growth from N to 2N per 1 000 alerts (flat is the
// target; ≤ 600 MB after 10 000 alerts). N is BENCH_MEMORY_N (default 2 000).
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startRuntime, type Runtime } from '../infra/local/runtime';
import { groupCommitsIdle } from '../lib/group-commit';
import { readCounts } from '../lib/store/counters';
import { typeOf } from '../lib/entities';
import { KeepAliveClient, LoadThread, round, runWhenMain, type Figures } from './support';

const MB = 2 ** 20;
const mb = (bytes: number) => round(bytes / MB, 1);

interface Options {
  alerts?: number;
  settleSeconds?: number;
  concurrency?: number;
  /** The emulator's data in memory instead of on disk (to tell LevelDB's share from the rest). */
  inMemory?: boolean;
}

interface Service {
  runtime: Runtime;
  client: KeepAliveClient;
  sqs: SQSClient;
  accountId: string;
  webhookPath: string;
  stop(): Promise<void>;
}

async function json<T>(client: KeepAliveClient, method: string, url: string, body?: unknown): Promise<T> {
  const res = await client.request(method, url, body === undefined ? undefined : JSON.stringify(body));
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as T;
}

/** A runtime on disk, as `npm start` runs, with a team whose one member is on call and a webhook integration paging it. */
async function startService(inMemory: boolean): Promise<Service> {
  const dataDir = inMemory ? ':memory:' : mkdtempSync(path.join(os.tmpdir(), 'oncall-bench-memory-'));
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir,
    scheduleIntervalMs: 10_000,
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  const client = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  const users = await json<{ data: { id: string; account_id: string }[] }>(client, 'GET', '/api/v4/account_users');
  const me = users.data[0];
  const team = await json<{ id: string; schedule_id: string }>(client, 'POST', '/api/v4/teams', {
    name: 'Bench memory',
    member_account_user_ids: [me.id],
    admin_account_user_ids: [me.id],
  });
  await json(client, 'POST', '/api/v4/events', {
    schedule_ids: [team.schedule_id],
    account_user_ids: [me.id],
    layer: 1,
    start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
    end_datetime: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    time_zone: 'UTC',
  });
  const integration = await json<{ prefix_id: string }>(client, 'POST', '/api/v4/integrations', {
    name: 'bench',
    urgency: 'high',
    integration_type_id: 'webhook',
    team_ids: [team.id],
    option_rate_limit_per_minute: 10_000_000,
    option_rate_limit_burst: 1_000_000,
  });
  const sqs = new SQSClient({ endpoint: runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  return {
    runtime,
    client,
    sqs,
    accountId: me.account_id,
    webhookPath: `/integration/${integration.prefix_id}`,
    async stop() {
      client.close();
      sqs.destroy();
      await runtime.stop();
      if (!inMemory) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every queue empty, every poller idle and every group commit answered, twice in a row with no batch between. */
async function atRest(service: Service): Promise<boolean> {
  const batches = service.runtime.pollers.reduce((sum, p) => sum + p.batches, 0);
  for (const { url } of Object.values(service.runtime.queues)) {
    const { Attributes = {} } = await service.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    if (Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) > 0)
      return false;
  }
  const idle = service.runtime.pollers.every((p) => p.busy === 0) && groupCommitsIdle();
  return idle && batches === service.runtime.pollers.reduce((sum, p) => sum + p.batches, 0);
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 30 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let passes = 0;
  while (passes < 2) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    passes = (await check()) ? passes + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Snapshot {
  rss: number;
  mainHeap: number;
  mainHeapTotal: number;
  dynamoHeapTotal: number;
  mainExternal: number;
  mainArrayBuffers: number;
  dynamoHeap: number;
  dynamoExternal: number;
  dynamoArrayBuffers: number;
}

async function snapshot(service: Service): Promise<Snapshot> {
  const main = process.memoryUsage();
  const dynamo = await service.runtime.emulators.dynamoMemory();
  return {
    rss: main.rss,
    mainHeap: main.heapUsed,
    mainHeapTotal: main.heapTotal,
    dynamoHeapTotal: dynamo?.heapTotal ?? 0,
    mainExternal: main.external,
    mainArrayBuffers: main.arrayBuffers,
    dynamoHeap: dynamo?.heapUsed ?? 0,
    dynamoExternal: dynamo?.external ?? 0,
    dynamoArrayBuffers: dynamo?.arrayBuffers ?? 0,
  };
}

function figuresOf(at: string, s: Snapshot): Figures {
  return {
    [`memory.${at}.rss_mb`]: mb(s.rss),
    [`memory.${at}.main_heap_mb`]: mb(s.mainHeap),
    [`memory.${at}.main_heap_total_mb`]: mb(s.mainHeapTotal),
    [`memory.${at}.dynalite_heap_total_mb`]: mb(s.dynamoHeapTotal),
    [`memory.${at}.main_external_mb`]: mb(s.mainExternal),
    [`memory.${at}.main_array_buffers_mb`]: mb(s.mainArrayBuffers),
    [`memory.${at}.dynalite_heap_mb`]: mb(s.dynamoHeap),
    [`memory.${at}.dynalite_external_mb`]: mb(s.dynamoExternal),
  };
}

export async function benchMemory(options: Options = {}): Promise<Figures> {
  const n = options.alerts ?? 2_000;
  const concurrency = options.concurrency ?? 32;
  const service = await startService(options.inMemory ?? false);
  const load = new LoadThread();
  let sent = 0;
  let refused = 0;
  /** Posts `count` new webhooks; one answered other than 202 is sent again, as a sender retries (same id: deduplicated). */
  const send = async (count: number) => {
    let ops = Array.from({ length: count }, () => {
      const id = `memory-${sent++}`;
      return {
        method: 'POST',
        path: service.webhookPath,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event_type: 'create', id, title: `Bench alert ${id}`, description: 'memory', urgency: 'high' }),
      };
    });
    while (ops.length > 0) {
      const result = await load.run({ kind: 'http', baseUrl: service.runtime.url, concurrency, ops });
      ops = ops.filter((_, i) => result.statuses[i] !== 202);
      refused += ops.length;
    }
    await waitUntil(async () => ((await readCounts(service.accountId, typeOf('alert'))).total ?? 0) >= sent, `${sent} alerts`);
    await waitUntil(() => atRest(service), 'the runtime to come to rest');
  };
  const trace = process.env.BENCH_MEMORY_TRACE
    ? setInterval(() => {
        void snapshot(service).then((s) =>
          console.log(
            `trace rss=${mb(s.rss)} main=${mb(s.mainHeap)}/${mb(s.mainHeapTotal)} ext=${mb(s.mainExternal)} dyn=${mb(s.dynamoHeap)}/${mb(s.dynamoHeapTotal)} dynext=${mb(s.dynamoExternal)} sent=${sent}`,
          ),
        );
      }, 5000)
    : undefined;
  try {
    const started = performance.now();
    const idle = await snapshot(service);
    await send(n);
    const first = await snapshot(service);
    await send(n);
    const second = await snapshot(service);
    const settleSeconds = options.settleSeconds ?? 30;
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    const rested = await snapshot(service);
    const elapsed = (performance.now() - started) / 1000;
    return {
      'memory.alerts_n': n,
      ...figuresOf('idle', idle),
      ...figuresOf('n', first),
      ...figuresOf('2n', second),
      ...figuresOf('rested', rested),
      'memory.rested_after_s': settleSeconds,
      'memory.rss_growth_n_to_2n_mb': mb(second.rss - first.rss),
      'memory.rss_growth_per_1000_alerts_mb': mb(((second.rss - first.rss) / n) * 1000),
      'memory.rss_growth_while_resting_mb': mb(rested.rss - second.rss),
      'memory.alerts_per_second': round((2 * n) / elapsed, 1),
      'memory.webhooks_refused_then_retried': refused,
      'memory.target_rss_after_10000_mb': 600,
      'memory.load_average_1m': round(os.loadavg()[0], 2),
    };
  } finally {
    clearInterval(trace);
    await load.close();
    await service.stop();
  }
}

const envNumber = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
runWhenMain(import.meta.url, () =>
  benchMemory({
    alerts: envNumber('BENCH_MEMORY_N'),
    settleSeconds: envNumber('BENCH_MEMORY_SETTLE_S'),
    inMemory: process.env.BENCH_MEMORY_DATA === 'memory',
  }),
);
