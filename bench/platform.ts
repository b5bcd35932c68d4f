// Platform benchmarks (issue 2): API overhead against a raw GetItem, cold start of every function
// bundle, and a list at 10 000 account users against one at 10.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleFunction } from '../infra/bundle-analysis';
import { buildFunction, ESBUILD_OPTIONS } from '../infra/bundling';
import { FUNCTIONS } from '../infra/functions';
import { startRuntime } from '../infra/local/runtime';
import type { AccountUserRecord } from '../lib/account-users/records';
import { createAccountWithAdmin } from '../lib/accounts/create-account';
import { newId } from '../lib/ids';
import { setCounts } from '../lib/store/counters';
import { batchWrite, entityKey, getItem } from '../lib/store/items';
import { typeOf } from '../lib/entities';
import { KeepAliveClient, LoadThread, median, readList, round, runWhenMain, sideBySide, type LoadTask, NO_PERIODIC_SWEEP } from './support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Writes `count` account users straight into the store, shaped exactly as the API writes them. */
async function seedAccountUsers(accountId: string, template: AccountUserRecord, count: number): Promise<void> {
  const items = Array.from({ length: count }, (_, i) => {
    const id = newId();
    const record: AccountUserRecord = {
      ...template,
      id,
      user_id: newId(),
      roles: { admin: false, billing: false, broadcaster: false, communicator: false },
      user: { ...template.user, name: `Seeded ${i}`, emails: [{ id: newId(), email: `seeded-${i}-${id}@example.com`, primary: true }] },
    };
    return { ...entityKey(accountId, typeOf('accountUser'), id), gsi1pk: `USER#${record.user_id}#ACU`, gsi1sk: accountId, ...record };
  });
  await batchWrite(items.map((item) => ({ PutRequest: { Item: item } })));
  await setCounts(accountId, typeOf('accountUser'), { total: count + 1 });
}

export async function apiBenchmarks(): Promise<Record<string, number>> {
  const apiKey = 'b'.repeat(48);
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'bench-platform',
    bootstrap: { apiKey },
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
    scheduleIntervalMs: NO_PERIODIC_SWEEP,
  });
  const client = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}` });
  try {
    const admin = runtime.created!.admin;
    const key = entityKey(admin.account_id, typeOf('accountUser'), admin.id);
    const path = `/api/v4/account_users/${admin.id}`;
    const check = await client.request('GET', path);
    if (check.status !== 200) throw new Error(`GET account user answered ${check.status}`);
    // Both sides from one load thread, alternating rounds (bench/load-thread.mjs).
    const load = new LoadThread();
    const overhead = { a: [] as number[], b: [] as number[] };
    const apiTask: LoadTask = {
      kind: 'http',
      baseUrl: runtime.url,
      concurrency: 1,
      ops: Array.from({ length: 100 }, () => ({ method: 'GET', path, headers: { authorization: `Bearer ${apiKey}` } })),
    };
    const rawTask: LoadTask = {
      kind: 'getItem',
      endpoint: runtime.emulators.dynamodbEndpoint,
      concurrency: 1,
      ops: Array.from({ length: 100 }, () => ({
        TableName: runtime.tableName,
        Key: { pk: { S: key.pk }, sk: { S: key.sk } },
        ConsistentRead: true,
      })),
    };
    // The same GetItem as the service makes it, on its own client (on the embedded emulators, over
    // the MessagePort to the emulator's thread: infra/local/dynamo-port.ts), one at a time.
    const serviceReads: number[] = [];
    const serviceRead = async () => {
      const latencies: number[] = [];
      for (let i = 0; i < 100; i++) {
        const started = performance.now();
        if (!(await getItem(key))) throw new Error('the account user is not in the table');
        latencies.push(performance.now() - started);
      }
      return latencies;
    };
    for (let round = 0; round < 22; round++) {
      const [api, raw, service] = [await load.run(apiTask), await load.run(rawTask), await serviceRead()];
      if (round < 2) continue; // warm-up
      overhead.a.push(...api.latencies);
      overhead.b.push(...raw.latencies);
      serviceReads.push(...service);
    }
    await load.close();

    // A big account (10 000 users) and a small one (10), listed side by side.
    const big = runtime.created!;
    await seedAccountUsers(big.account.id, big.admin, 10_000);
    const small = await createAccountWithAdmin({
      accountName: 'Small',
      name: 'Small Admin',
      email: 'small@example.com',
      apiKey: 's'.repeat(48),
    });
    await seedAccountUsers(small.account.id, small.admin, 9);
    const smallClient = new KeepAliveClient(runtime.url, { authorization: `Bearer ${'s'.repeat(48)}` });
    const bigPage = readList((await client.request('GET', '/api/v4/account_users?limit=10')).body);
    if (bigPage.total_count !== 10_001 || bigPage.data.length !== 10) throw new Error('big account list is wrong');
    const list = await sideBySide(
      () => client.request('GET', '/api/v4/account_users?limit=10'),
      () => smallClient.request('GET', '/api/v4/account_users?limit=10'),
      { rounds: 10, perRound: 30, warmup: 30 },
    );
    smallClient.close();
    return {
      api_get_account_user_p50_ms: round(median(overhead.a)),
      raw_get_item_p50_ms: round(median(overhead.b)),
      api_overhead_ratio: round(median(overhead.a) / median(overhead.b), 2),
      service_get_item_p50_ms: round(median(serviceReads)),
      api_to_service_get_item_ratio: round(median(overhead.a) / median(serviceReads), 2),
      list_10000_users_p50_ms: round(median(list.a)),
      list_10_users_p50_ms: round(median(list.b)),
      list_scale_ratio: round(median(list.a) / median(list.b), 2),
    };
  } finally {
    client.close();
    await runtime.stop();
  }
}

/**
 * What every function loads before any code of ours: the DynamoDB client with the SDK's marshaller
 * (lib/store/commands.ts; the document client until it went) and the SQS client, bundled with the
 * same options. Issue 21 measures each function's initialisation against it.
 */
const SDK_ALONE = [
  "export { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
  "export { marshall, unmarshall } from '@aws-sdk/util-dynamodb';",
  "export { SQSClient } from '@aws-sdk/client-sqs';",
].join('\n');

/**
 * Milliseconds to import the module at `file` (then each of `later`, as a first request would) in a
 * fresh Node process: wall time, and the process's CPU time over the same span (user + system). On
 * a machine shared with other work the wall time of one start varies by up to 2× from run to run
 * (its thread waits for a core), the CPU time by a few percent.
 */
function importMs(file: string, later: string[] = []): { wall: number; cpu: number } {
  const imports = [file, ...later].map((each) => `await import(${JSON.stringify(each)});`).join(' ');
  const script = `const t=process.hrtime.bigint(); const c=process.cpuUsage(); ${imports} const u=process.cpuUsage(c); console.log(Number(process.hrtime.bigint()-t)/1e6, (u.user+u.system)/1e3)`;
  const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  const [wall, cpu] = printed.toString().trim().split(' ').map(Number);
  return { wall, cpu };
}

/**
 * Bundles every function as the stack does and measures its size and module initialisation, and
 * the SDK's alone: rounds run the SDK and every function in turn, so each ratio compares runs made
 * under the same load.
 */
export async function coldStarts(): Promise<Record<string, number>> {
  const out = mkdtempSync(path.join(tmpdir(), 'oncall-bundles-'));
  const figures: Record<string, number> = {};
  try {
    const sdkFile = path.join(out, 'sdk-alone', 'index.mjs');
    const files = Object.fromEntries(Object.keys(FUNCTIONS).map((name) => [name, path.join(out, name, 'index.mjs')]));
    await Promise.all([
      build({ ...ESBUILD_OPTIONS, stdin: { contents: SDK_ALONE, resolveDir: root, loader: 'ts' }, outfile: sdkFile, logLevel: 'silent' }),
      ...Object.entries(FUNCTIONS).map(([name, definition]) =>
        buildFunction(root, definition.entry, path.dirname(files[name]), { logLevel: 'silent' }),
      ),
    ]);
    // The chunks each function loads only on first use: timed apart, after its start, so that the
    // cost a lazy import moves to the first request that needs it is in the figures too. zod's
    // classic API first, where a request's arrival loads it (infra/bundling.ts, deferClassicZod): the
    // handler waits for it before any route's code runs, and some of that code builds schemas as it loads.
    const chunksOf = (name: string) => {
      const dir = path.join(path.dirname(files[name]), 'chunks');
      return existsSync(dir)
        ? readdirSync(dir)
            .filter((file) => file.endsWith('.mjs'))
            .sort((a, b) => Number(b.startsWith('zod-classic-')) - Number(a.startsWith('zod-classic-')))
            .map((file) => path.join(dir, file))
        : [];
    };
    const runs: Record<string, { wall: number; cpu: number }[]> = {
      sdk: [],
      ...Object.fromEntries(Object.keys(files).map((name) => [name, []])),
    };
    const withChunks: Record<string, number[]> = Object.fromEntries(Object.keys(files).map((name) => [name, []]));
    for (let round = 0; round < 5; round++) {
      runs.sdk.push(importMs(sdkFile));
      for (const [name, file] of Object.entries(files)) {
        runs[name].push(importMs(file));
        if (chunksOf(name).length) withChunks[name].push(importMs(file, chunksOf(name)).wall);
      }
    }
    const medianOf = (name: string, kind: 'wall' | 'cpu') => median(runs[name].map((run) => run[kind]));
    const sdk = medianOf('sdk', 'wall');
    const sdkCpu = medianOf('sdk', 'cpu');
    let largest = 0;
    let slowest = 0;
    let slowestRatio = 0;
    let slowestCpuRatio = 0;
    for (const name of Object.keys(files)) {
      // What a cold start loads (index.mjs and its static chunks), as the bundle budget test counts it.
      const { bytes, lazyBytes } = await bundleFunction(root, FUNCTIONS[name as keyof typeof FUNCTIONS].entry);
      const init = medianOf(name, 'wall');
      const initCpu = medianOf(name, 'cpu');
      figures[`bundle_${name}_kib`] = round(bytes / 1024, 1);
      if (lazyBytes) {
        figures[`bundle_${name}_on_first_use_kib`] = round(lazyBytes / 1024, 1);
        figures[`init_${name}_with_every_chunk_ms`] = round(median(withChunks[name]), 1);
      }
      figures[`init_${name}_ms`] = round(init, 1);
      figures[`init_${name}_ratio`] = round(init / sdk, 2);
      figures[`init_${name}_cpu_ratio`] = round(initCpu / sdkCpu, 2);
      largest = Math.max(largest, bytes);
      slowest = Math.max(slowest, init);
      slowestRatio = Math.max(slowestRatio, init / sdk);
      slowestCpuRatio = Math.max(slowestCpuRatio, initCpu / sdkCpu);
    }
    return {
      largest_bundle_kib: round(largest / 1024, 1),
      slowest_init_ms: round(slowest, 1),
      sdk_alone_kib: round(statSync(sdkFile).size / 1024, 1),
      sdk_alone_init_ms: round(sdk, 1),
      slowest_init_ratio: round(slowestRatio, 2),
      sdk_alone_init_cpu_ms: round(sdkCpu, 1),
      slowest_init_cpu_ratio: round(slowestCpuRatio, 2),
      ...figures,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function benchPlatform(): Promise<Record<string, number | string>> {
  return { ...(await apiBenchmarks()), ...(await coldStarts()) };
}

runWhenMain(import.meta.url, benchPlatform);
