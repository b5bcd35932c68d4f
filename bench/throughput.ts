// Throughput of the local runtime on `npm start` defaults (issue 21): data on disk, paging on (a team
// with one person on call, every alert pages them), the sweeper every 10 s. In one run:
//   1. raw PutItem to the emulator and alerts created through POST /api/v4/alerts, both at
//      concurrency 16, in alternating rounds (the same machine load for both sides of the ratio);
//   2. webhooks posted flat out (concurrency 32): accepted a second, and alerts a second end to end
//      (first post → the last one counted);
//   3. a storm: STORM webhooks paced at STORM_PER_SECOND; time to page (202 answered → the page's
//      sent_at) p50/p99, and how long after the last 202 the backlog is gone.
// Each rate is also given as a ratio to the raw PutItem rate. Sizes come from the environment
// (BENCH_THROUGHPUT_CREATES, _WEBHOOKS, _STORM, _STORM_PER_SECOND) so a run on a shared machine
// stays short; the load average is reported with the figures.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sqs } from '../lib/queues/client';
import { db } from '../lib/store/client';
import { readCounts } from '../lib/store/counters';
import { partitionOf, queryAll } from '../lib/store/items';
import { typeOf } from '../lib/entities';
import { atRest, startLocalService, waitUntil, type LocalService } from './local-service';
import { envNumber, LoadThread, percentile, round, runWhenMain, type Figures, type LoadTask } from './support';

export interface ThroughputOptions {
  creates?: number;
  webhooks?: number;
  storm?: number;
  stormPerSecond?: number;
}

/** Where a long run is (stderr: the figures on stdout stay a table). */
const progress = (what: string) =>
  console.error(`${new Date().toISOString().slice(11, 19)} throughput: ${what} (load ${round(os.loadavg()[0], 1)})`);

const CONCURRENCY = 16;
const WEBHOOK_CONCURRENCY = 32;
const ROUND = 100;

const alertCount = async (service: LocalService) => (await readCounts(service.accountId, typeOf('alert'))).total ?? 0;

export function webhookOps(service: LocalService, prefix: string, count: number): Extract<LoadTask, { kind: 'http' }>['ops'] {
  return Array.from({ length: count }, (_, i) => ({
    method: 'POST',
    path: service.webhookPath,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event_type: 'create', id: `${prefix}-${i}`, title: `Bench ${prefix} ${i}`, urgency: 'high' }),
  }));
}

export function expectAll(statuses: number[], status: number, what: string): void {
  const other = statuses.filter((s) => s !== status);
  if (other.length > 0) throw new Error(`${what}: ${other.length} of ${statuses.length} answered ${[...new Set(other)].join(', ')}`);
}

interface CallStack {
  add(
    middleware: (next: (args: unknown) => Promise<unknown>) => (args: unknown) => Promise<unknown>,
    options: { step: string; name: string; priority: string; override: boolean },
  ): void;
  remove(name: string): boolean;
}

/**
 * Where a phase's time went: the process's CPU time (every thread, the load thread's small share
 * included), how busy the main thread (API, workers, fauxqs, the SDK clients) and
 * the dynalite thread were, and how many calls the service's DynamoDB and SQS clients made (every
 * attempt; the pollers' receives and deletes are the runtime's own client, not counted).
 */
export function phaseMeter(service: LocalService) {
  const calls = { dynamodb: 0, sqs: 0 };
  /** Calls by operation (DynamoDB's GetItem, SQS's SendMessageBatch…): printed with BENCH_THROUGHPUT_CALLS=1. */
  const byOperation = new Map<string, number>();
  const stacks: Array<[CallStack, keyof typeof calls]> = [
    [db().middlewareStack as unknown as CallStack, 'dynamodb'],
    [sqs().middlewareStack as unknown as CallStack, 'sqs'],
  ];
  for (const [stack, name] of stacks)
    stack.add(
      (next) => (args) => {
        calls[name] += 1;
        const headers = (args as { request?: { headers?: Record<string, string> } }).request?.headers ?? {};
        const operation = `${name}.${(headers['x-amz-target'] ?? '?').split('.').pop()}`;
        byOperation.set(operation, (byOperation.get(operation) ?? 0) + 1);
        return next(args);
      },
      { step: 'finalizeRequest', name: 'benchCallCount', priority: 'low', override: true },
    );
  const start = () => ({
    cpu: process.cpuUsage(),
    main: performance.eventLoopUtilization(),
    dynalite: service.runtime.emulators.dynamoLoopUtilization(),
    calls: { ...calls },
    byOperation: new Map(byOperation),
  });
  return {
    start,
    /** The phase's figures, per alert where it says so, named `<key>.<figure>` (`throughput.storm`). */
    figures(from: ReturnType<typeof start>, key: string, alerts: number): Figures {
      const dynalite = from.dynalite && service.runtime.emulators.dynamoLoopUtilization();
      const cpu = process.cpuUsage(from.cpu);
      if (process.env.BENCH_THROUGHPUT_CALLS === '1') {
        const per = [...byOperation]
          .map(([operation, count]): [string, number] => [operation, round((count - (from.byOperation.get(operation) ?? 0)) / alerts, 2)])
          .filter(([, perAlert]) => perAlert > 0)
          .sort((a, b) => b[1] - a[1]);
        console.log(`${key}: calls an alert by operation: ${per.map(([operation, perAlert]) => `${operation} ${perAlert}`).join(', ')}`);
      }
      return {
        // CPU time is what a busy machine does not inflate (wall time and loop busyness it does).
        [`${key}.process_cpu_ms_per_alert`]: round((cpu.user + cpu.system) / 1000 / alerts, 1),
        [`${key}.main_thread_busy`]: round(performance.eventLoopUtilization(from.main).utilization, 2),
        [`${key}.dynalite_thread_busy`]:
          from.dynalite && dynalite ? round(performance.eventLoopUtilization(dynalite, from.dynalite).utilization, 2) : 'n/a',
        [`${key}.dynamodb_calls_per_alert`]: round((calls.dynamodb - from.calls.dynamodb) / alerts, 1),
        [`${key}.sqs_calls_per_alert`]: round((calls.sqs - from.calls.sqs) / alerts, 1),
      };
    },
    stop() {
      for (const [stack] of stacks) stack.remove('benchCallCount');
    },
  };
}

/** Alerts `from` … `from + count - 1` created through POST /api/v4/alerts for the bench's team, 16 in flight. */
export function alertCreates(service: LocalService, from: number, count: number): LoadTask {
  const headers = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };
  return {
    kind: 'http',
    baseUrl: service.runtime.url,
    concurrency: CONCURRENCY,
    ops: Array.from({ length: count }, (_, i) => ({
      method: 'POST',
      path: '/api/v4/alerts',
      headers,
      body: JSON.stringify({ title: `Bench create ${from + i}`, urgency: 'high', destination_team_ids: [service.teamId] }),
    })),
  };
}

/** Waits for the runtime to come to rest; answers how long that took (ms). */
export async function drained(service: LocalService, since: number): Promise<number> {
  await waitUntil(() => atRest(service), 'the runtime to come to rest', 30 * 60_000, 100);
  return Date.now() - since;
}

/** The first page's sent time of each alert, by the webhook id (thirdparty_id) that made it. */
export async function firstPageByThirdparty(service: LocalService): Promise<Map<string, number>> {
  const thirdpartyOf = new Map<string, string>();
  for await (const item of queryAll(partitionOf(service.accountId, typeOf('alert')))) {
    if (typeof item.thirdparty_id === 'string') thirdpartyOf.set(String(item.sk), item.thirdparty_id);
  }
  const first = new Map<string, number>();
  for await (const item of queryAll(partitionOf(service.accountId, typeOf('notification')))) {
    const thirdparty = typeof item.alert_id === 'string' ? thirdpartyOf.get(item.alert_id) : undefined;
    if (!thirdparty || typeof item.sent_at !== 'string') continue;
    const at = Date.parse(item.sent_at);
    first.set(thirdparty, Math.min(first.get(thirdparty) ?? Infinity, at));
  }
  return first;
}

export async function benchThroughput(options: ThroughputOptions = {}): Promise<Figures> {
  const creates = options.creates ?? envNumber('BENCH_THROUGHPUT_CREATES') ?? 1_000;
  const webhooks = options.webhooks ?? envNumber('BENCH_THROUGHPUT_WEBHOOKS') ?? 2_000;
  const stormSize = options.storm ?? envNumber('BENCH_THROUGHPUT_STORM') ?? 2_000;
  const stormPerSecond = options.stormPerSecond ?? envNumber('BENCH_THROUGHPUT_STORM_PER_SECOND') ?? 200;
  const service = await startLocalService({ outbox: 'log' });
  const load = new LoadThread();
  const meter = phaseMeter(service);
  const loadAverages: number[] = [];
  const sampleLoad = setInterval(() => loadAverages.push(os.loadavg()[0]), 5_000);
  try {
    // ── 1. raw PutItem and API creates, alternating rounds ─────────────────────────────────────
    const filler = randomBytes(300).toString('hex'); // an item of about an alert's size
    const putTask = (from: number, count: number): LoadTask => ({
      kind: 'putItem',
      endpoint: service.runtime.emulators.dynamodbEndpoint,
      concurrency: CONCURRENCY,
      ops: Array.from({ length: count }, (_, i) => ({
        TableName: service.runtime.tableName,
        Item: { pk: { S: 'BENCH#raw' }, sk: { S: `PUT#${from + i}` }, filler: { S: filler } },
      })),
    });
    const createTask = (from: number, count: number) => alertCreates(service, from, count);
    await load.run(putTask(-50, 50)); // warm both paths
    expectAll((await load.run(createTask(-20, 20))).statuses, 201, 'warm-up creates');
    let putSeconds = 0;
    let createSeconds = 0;
    const createLatencies: number[] = [];
    const createsStarted = Date.now();
    const createsMeter = meter.start();
    for (let from = 0; from < creates; from += ROUND) {
      const count = Math.min(ROUND, creates - from);
      putSeconds += (await load.run(putTask(from, count))).seconds;
      const created = await load.run(createTask(from, count));
      expectAll(created.statuses, 201, 'POST /api/v4/alerts');
      createSeconds += created.seconds;
      createLatencies.push(...created.latencies);
    }
    progress(`creates done: ${round(creates / createSeconds, 1)}/s; waiting for the paging to finish`);
    const createsDrainedMs = await drained(service, createsStarted);
    // The raw puts ran on the load thread's own client: not among the calls counted here.
    const createsFigures = meter.figures(createsMeter, 'throughput.creates', creates);
    const rawPutPerSecond = creates / putSeconds;
    createLatencies.sort((a, b) => a - b);

    // ── 2. webhooks flat out: accepted, and alerts end to end ──────────────────────────────────
    const before = await alertCount(service);
    const webhooksStarted = Date.now();
    const webhooksMeter = meter.start();
    const posted = load.run({
      kind: 'http',
      baseUrl: service.runtime.url,
      concurrency: WEBHOOK_CONCURRENCY,
      ops: webhookOps(service, 'flood', webhooks),
    });
    let lastCounted = before;
    const counted = waitUntil(
      async () => (lastCounted = await alertCount(service)) >= before + webhooks,
      `${webhooks} alerts from webhooks`,
      30 * 60_000,
      100,
    ).then(() => Date.now() - webhooksStarted);
    const accepted = await posted;
    expectAll(accepted.statuses, 202, 'webhooks');
    const endToEndMs = await counted;
    if (lastCounted !== before + webhooks) throw new Error(`${lastCounted - before} alerts from ${webhooks} webhooks`);
    progress(
      `webhooks: ${round(webhooks / accepted.seconds, 1)} accepted/s, all alerts after ${round(endToEndMs / 1000, 1)} s; waiting for rest`,
    );
    const webhooksDrainedMs = await drained(service, webhooksStarted);
    const webhooksFigures = meter.figures(webhooksMeter, 'throughput.webhooks', webhooks);
    const acceptLatencies = [...accepted.latencies].sort((a, b) => a - b);

    // ── 3. storm: time to page ──────────────────────────────────────────────────────────────────
    const stormStarted = Date.now();
    const stormMeter = meter.start();
    const storm = await load.run({
      kind: 'http',
      baseUrl: service.runtime.url,
      concurrency: WEBHOOK_CONCURRENCY,
      perSecond: stormPerSecond,
      ops: webhookOps(service, 'storm', stormSize),
    });
    expectAll(storm.statuses, 202, 'storm webhooks');
    progress(`storm posted at ${round(stormSize / storm.seconds, 1)}/s; waiting for rest`);
    const lastAccepted = Math.max(...storm.answeredAt);
    const backlogMs = (await drained(service, stormStarted)) - (lastAccepted - stormStarted);
    const restAt = Date.now();
    const stormFigures = meter.figures(stormMeter, 'throughput.storm', stormSize);
    // A page whose step ran out of its lease before the provider call is left queued for the
    // sweeper (every 10 s): the runtime is at rest, but that alert is not paged yet.
    let pagedAt = new Map<string, number>();
    const allPaged = async () => (pagedAt = await firstPageByThirdparty(service)).size >= stormSize + webhooks;
    const pagedLate = await waitUntil(allPaged, 'every storm alert paged', 60_000, 1_000).then(
      () => true,
      () => false,
    );
    const toPage = storm.answeredAt.map((at, i) => (pagedAt.get(`storm-${i}`) ?? NaN) - at);
    const unpaged = toPage.filter((ms) => Number.isNaN(ms)).length;
    if (!pagedLate) console.warn(`${unpaged} of ${stormSize} storm alerts not paged 60 s after the runtime came to rest`);
    const pagedAfterRest = storm.answeredAt.filter((_, i) => (pagedAt.get(`storm-${i}`) ?? 0) > restAt).length;
    const paged = toPage.filter((ms) => !Number.isNaN(ms)).sort((a, b) => a - b);

    const figures: Figures = {
      'throughput.raw_put_per_s': round(rawPutPerSecond, 1),
      'throughput.creates': creates,
      'throughput.creates_per_s': round(creates / createSeconds, 1),
      'throughput.creates_to_raw_put': round(creates / createSeconds / rawPutPerSecond, 3),
      'throughput.create_p50_ms': round(percentile(createLatencies, 50), 1),
      'throughput.create_p99_ms': round(percentile(createLatencies, 99), 1),
      'throughput.creates_paged_and_at_rest_after_s': round(createsDrainedMs / 1000, 1),
      'throughput.webhooks': webhooks,
      'throughput.webhooks_accepted_per_s': round(webhooks / accepted.seconds, 1),
      'throughput.webhooks_accepted_to_raw_put': round(webhooks / accepted.seconds / rawPutPerSecond, 3),
      'throughput.webhook_accept_p50_ms': round(percentile(acceptLatencies, 50), 1),
      'throughput.webhook_accept_p99_ms': round(percentile(acceptLatencies, 99), 1),
      'throughput.webhook_alerts_per_s': round(webhooks / (endToEndMs / 1000), 1),
      'throughput.webhook_alerts_to_raw_put': round(webhooks / (endToEndMs / 1000) / rawPutPerSecond, 3),
      'throughput.webhooks_paged_and_at_rest_after_s': round(webhooksDrainedMs / 1000, 1),
      'throughput.storm_alerts': stormSize,
      'throughput.storm_posted_per_s': round(stormSize / storm.seconds, 1),
      'throughput.time_to_page_p50_ms': round(percentile(paged, 50), 1),
      'throughput.time_to_page_p99_ms': round(percentile(paged, 99), 1),
      'throughput.time_to_page_max_ms': round(paged[paged.length - 1], 1),
      'throughput.storm_pages_left_for_the_sweeper': pagedAfterRest,
      'throughput.storm_alerts_unpaged': unpaged,
      'throughput.storm_backlog_gone_after_last_accept_s': round(backlogMs / 1000, 1),
      ...createsFigures,
      ...webhooksFigures,
      ...stormFigures,
      'throughput.load_average_1m_mean': round(loadAverages.reduce((a, b) => a + b, 0) / Math.max(1, loadAverages.length), 2),
      'throughput.load_average_1m_end': round(os.loadavg()[0], 2),
    };
    return figures;
  } finally {
    clearInterval(sampleLoad);
    meter.stop();
    await load.close();
    await service.stop();
  }
}

runWhenMain(import.meta.url, () => benchThroughput());
