// Alert benchmarks (issue 3), on the local runtime with its embedded emulators:
// (a) acknowledge throughput: 1 000 open alerts acknowledged through the API with 16 in flight,
//     against raw conditional UpdateItems (the floor: one write) at the same concurrency, both
//     issued from a load thread of their own (bench/load-thread.mjs);
// (b) GET /api/v4/alerts?status=open&limit=10 in an account of 100 000 alerts against one of 100.
import { startRuntime } from '../infra/local/runtime';
import { createAccountWithAdmin } from '../lib/accounts/create-account';
import type { AlertRecord, AlertStatus } from '../lib/alerts/records';
import { importAlerts } from '../lib/alerts/bulk-store';
import { alertDefaults } from '../lib/alerts/store';
import { newId } from '../lib/ids';
import { readCounts } from '../lib/store/counters';
import { entityKey } from '../lib/store/items';
import { typeOf } from '../lib/entities';
import {
  KeepAliveClient,
  LoadThread,
  median,
  percentile,
  pool,
  readList,
  round,
  sideBySide,
  type LoadTask,
  runWhenMain,
  NO_PERIODIC_SWEEP,
} from './support';

function seededAlert(accountId: string, sourceId: string, status: AlertStatus, tinyId: number): AlertRecord {
  const now = new Date().toISOString();
  return {
    ...alertDefaults(),
    id: newId(),
    account_id: accountId,
    tiny_id: tinyId,
    version: 1,
    title: `Seeded alert ${tinyId}`,
    urgency: tinyId % 4 === 0 ? 'critical' : 'high',
    status,
    destination_account_user_ids: [sourceId],
    source_type: 'AccountUser',
    source_id: sourceId,
    // Seeded as already routed: the routing worker has nothing to do during the measurements.
    routed_at: now,
    created_at: now,
    updated_at: now,
  };
}

const STATUS_MIX: AlertStatus[] = ['open', 'acknowledged', 'resolved', 'resolved', 'dropped'];

async function seed(accountId: string, sourceId: string, count: number, status?: AlertStatus): Promise<AlertRecord[]> {
  const chunk = 1_000;
  const all: AlertRecord[] = [];
  await pool(Math.ceil(count / chunk), 4, async (c) => {
    const records = Array.from({ length: Math.min(chunk, count - c * chunk) }, (_, i) => {
      const n = c * chunk + i + 1;
      return seededAlert(accountId, sourceId, status ?? STATUS_MIX[n % STATUS_MIX.length], n);
    });
    await importAlerts(accountId, records);
    all.push(...records);
  });
  return all;
}

export async function benchAlerts(): Promise<Record<string, number | string>> {
  const apiKey = 'a'.repeat(48);
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'bench-alerts',
    bootstrap: { apiKey },
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
    scheduleIntervalMs: NO_PERIODIC_SWEEP,
  });
  const client = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}` });
  try {
    const big = runtime.created!;
    const accountId = big.account.id;
    const sourceId = big.admin.id;

    // ── (a) acknowledge throughput ────────────────────────────────────────────────────────────
    const CONCURRENCY = 16;
    const [forApi, forRaw, warm] = await Promise.all([
      seed(accountId, sourceId, 1_000, 'open'),
      seed(accountId, sourceId, 1_000, 'open'),
      seed(accountId, sourceId, 100, 'open'),
    ]);
    // Both operations are issued from one load thread (bench/load-thread.mjs), never from the
    // server's event loop: the figures measure the service, and the ratio compares like with like.
    const load = new LoadThread();
    const headers = { authorization: `Bearer ${apiKey}` };
    const ackTask = (alerts: AlertRecord[], concurrency: number): LoadTask => ({
      kind: 'http',
      baseUrl: runtime.url,
      concurrency,
      ops: alerts.map((alert) => ({ method: 'POST', path: `/api/v4/alerts/${alert.id}/acknowledge`, headers })),
    });
    const rawTask = (alerts: AlertRecord[], concurrency: number): LoadTask => ({
      kind: 'updateItem',
      endpoint: runtime.emulators.dynamodbEndpoint,
      concurrency,
      ops: alerts.map((alert) => {
        const key = entityKey(accountId, typeOf('alert'), alert.id);
        return {
          TableName: runtime.tableName,
          Key: { pk: { S: key.pk }, sk: { S: key.sk } },
          UpdateExpression: 'SET #status = :to, #version = #version + :one',
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: { ':to': { S: 'acknowledged' }, ':from': { S: 'open' }, ':one': { N: '1' } },
        };
      }),
    });
    await load.run(ackTask(warm.slice(0, 50), 4));
    await load.run(rawTask(warm.slice(50), 4));

    // Rounds alternate between the two (100 of each, 16 in flight), so both see the same load
    // on a shared machine and the ratio is fair.
    const apiTimes: number[] = [];
    const rawTimes: number[] = [];
    let apiSeconds = 0;
    let rawSeconds = 0;
    const ROUND = 100;
    for (let start = 0; start < forApi.length; start += ROUND) {
      const api = await load.run(ackTask(forApi.slice(start, start + ROUND), CONCURRENCY));
      const failures = api.statuses.filter((status) => status !== 200).length;
      if (failures > 0) throw new Error(`${failures} acknowledges failed`);
      apiTimes.push(...api.latencies);
      apiSeconds += api.seconds;
      const rawRound = await load.run(rawTask(forRaw.slice(start, start + ROUND), CONCURRENCY));
      rawTimes.push(...rawRound.latencies);
      rawSeconds += rawRound.seconds;
    }

    // The same two operations one at a time, alternating rounds, for the latency of a single request.
    const [singleApi, singleRaw] = await Promise.all([seed(accountId, sourceId, 300, 'open'), seed(accountId, sourceId, 300, 'open')]);
    const single = { a: [] as number[], b: [] as number[] };
    for (let start = 0; start < 300; start += 50) {
      single.a.push(...(await load.run(ackTask(singleApi.slice(start, start + 50), 1))).latencies);
      single.b.push(...(await load.run(rawTask(singleRaw.slice(start, start + 50), 1))).latencies);
    }
    await load.close();

    const sortedApi = [...apiTimes].sort((x, y) => x - y);
    const sortedRaw = [...rawTimes].sort((x, y) => x - y);
    const acknowledgeFigures = {
      ack_alerts_per_s: round(forApi.length / apiSeconds, 1),
      ack_p50_ms: round(percentile(sortedApi, 50)),
      ack_p99_ms: round(percentile(sortedApi, 99)),
      raw_update_per_s: round(forRaw.length / rawSeconds, 1),
      raw_update_p50_ms: round(percentile(sortedRaw, 50)),
      ack_to_raw_p50_ratio: round(percentile(sortedApi, 50) / percentile(sortedRaw, 50), 2),
      single_ack_p50_ms: round(median(single.a.slice(10))),
      single_raw_update_p50_ms: round(median(single.b.slice(10))),
      single_ack_to_raw_ratio: round(median(single.a.slice(10)) / median(single.b.slice(10)), 2),
    };
    if (process.env.BENCH_VERBOSE) console.table(acknowledgeFigures);

    // ── (b) list by status: 100 000 alerts against 100 ─────────────────────────────────────────
    const smallKey = 's'.repeat(48);
    const small = await createAccountWithAdmin({ accountName: 'Small', name: 'Small Admin', email: 'small@example.com', apiKey: smallKey });
    await seed(small.account.id, small.admin.id, 100);
    const seedStarted = Date.now();
    const alreadyThere = (await readCounts(accountId, typeOf('alert'))).total ?? 0; // left by (a)
    await seed(accountId, sourceId, 100_000 - alreadyThere);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const smallClient = new KeepAliveClient(runtime.url, { authorization: `Bearer ${smallKey}` });
    const path = '/api/v4/alerts?status=open&limit=10';
    const bigPage = readList((await client.request('GET', path)).body);
    const smallPage = readList((await smallClient.request('GET', path)).body);
    const bigTotal = readList((await client.request('GET', '/api/v4/alerts?limit=1')).body).total_count;
    if (bigTotal !== 100_000 || bigPage.data.length !== 10 || smallPage.data.length !== 10) {
      throw new Error(`unexpected list: total ${bigTotal}, pages ${bigPage.data.length}/${smallPage.data.length}`);
    }
    const list = await sideBySide(
      () => client.request('GET', path),
      () => smallClient.request('GET', path),
      { rounds: 10, perRound: 30, warmup: 30 },
    );
    smallClient.close();

    return {
      ...acknowledgeFigures,
      seed_100k_s: round(seedSeconds, 1),
      list_open_100k_total: bigPage.total_count,
      list_open_100k_p50_ms: round(median(list.a)),
      list_open_100_p50_ms: round(median(list.b)),
      list_scale_ratio: round(median(list.a) / median(list.b), 2),
    };
  } finally {
    client.close();
    await runtime.stop();
  }
}

runWhenMain(import.meta.url, benchAlerts);
