// The embedded DynamoDB on `npm start` defaults (data on disk, paging on), two ways side by side.
// `emulator-store`: the store as the runtime runs it (table descriptions kept, the writes of one
// turn batched, keys read at once, an expression of a shape parsed once: infra/local/dynalite-worker.mjs)
// and dynalite's own (every request reads its table's description, every index entry a write of its
// own, every expression parsed).
// `emulator-transport`: the service's own calls over a MessagePort to the emulator's thread (the
// runtime's default: infra/local/dynamo-port.ts) and over loopback HTTP.
// Alternating rounds, each on a fresh runtime: CREATES alerts through POST /api/v4/alerts at
// concurrency 16, then until every page is sent and the runtime is at rest, after a round of each
// side not counted (cold code). Per side, the medians of: alerts created a second, alerts paged and
// at rest a second, the process's CPU time an alert, how busy the main and the dynalite thread were,
// and the calls that reached the store an alert; and the ratios of the two sides.
// BENCH_STORE_CREATES (default 400) and BENCH_STORE_ROUNDS (default 3) size both.
import { envNumber, LoadThread, median, round, runWhenMain, type Figures } from './support';
import { startLocalService, type LocalServiceOptions } from './local-service';
import { alertCreates, drained, expectAll, phaseMeter } from './throughput';

interface Round {
  createdPerSecond: number;
  pagedPerSecond: number;
  cpuMsPerAlert: number;
  mainBusy: number;
  dynaliteBusy: number;
  tableReadsPerAlert: number;
  storeWritesPerAlert: number;
}

async function oneRound(options: LocalServiceOptions, creates: number): Promise<Round> {
  const service = await startLocalService({ outbox: 'log', ...options });
  const load = new LoadThread();
  const meter = phaseMeter(service);
  try {
    await load.run(alertCreates(service, -20, 20));
    await drained(service, Date.now());
    const calls = (await service.runtime.emulators.dynamoStoreCalls())!;
    const started = Date.now();
    const from = meter.start();
    const created = await load.run(alertCreates(service, 0, creates));
    expectAll(created.statuses, 201, 'POST /api/v4/alerts');
    const restMs = await drained(service, started);
    const phase = meter.figures(from, 'throughput.store', creates);
    const after = (await service.runtime.emulators.dynamoStoreCalls())!;
    return {
      createdPerSecond: creates / created.seconds,
      pagedPerSecond: creates / (restMs / 1000),
      cpuMsPerAlert: Number(phase['throughput.store.process_cpu_ms_per_alert']),
      mainBusy: Number(phase['throughput.store.main_thread_busy']),
      dynaliteBusy: Number(phase['throughput.store.dynalite_thread_busy']),
      tableReadsPerAlert: (after.tableReads - calls.tableReads) / creates,
      storeWritesPerAlert: (after.writes - calls.writes) / creates,
    };
  } finally {
    meter.stop();
    await load.close();
    await service.stop();
  }
}

/**
 * Two ways of running the local service side by side (`prefix`.<side>.<figure> per side, and
 * `prefix`.<first>_to_<second>.<figure>): alternating rounds, each on a fresh runtime, the side that
 * goes first alternating too, after a round of each side not counted (cold code).
 */
export async function localServiceSideBySide(
  prefix: string,
  sides: [[string, LocalServiceOptions], [string, LocalServiceOptions]],
  creates: number,
  rounds: number,
): Promise<Figures> {
  const results = new Map<string, Round[]>(sides.map(([name]) => [name, []]));
  // A first runtime in the process meets cold code (the functions' modules, the JIT): a round of each side, not counted.
  for (const [, options] of sides) await oneRound(options, Math.min(creates, 100));
  for (let r = 0; r < rounds; r++) {
    // Which side goes first alternates too: neither always meets the machine first.
    for (const [name, options] of r % 2 === 0 ? sides : [...sides].reverse()) {
      results.get(name)!.push(await oneRound(options, creates));
      console.log(`[${prefix}] round ${r + 1} ${name}: ${JSON.stringify(results.get(name)!.at(-1))}`);
    }
  }
  const figures: Figures = { [`${prefix}.creates`]: creates, [`${prefix}.rounds`]: rounds };
  const [[first], [second]] = sides;
  const medianOf = (name: string, key: keyof Round) => median(results.get(name)!.map((r) => r[key]));
  const keys = Object.keys(results.get(first)![0]) as (keyof Round)[];
  for (const [name] of sides) for (const key of keys) figures[`${prefix}.${name}.${key}`] = round(medianOf(name, key), 2);
  for (const key of ['createdPerSecond', 'pagedPerSecond', 'cpuMsPerAlert'] as const)
    figures[`${prefix}.${first}_to_${second}.${key}`] = round(medianOf(first, key) / medianOf(second, key), 3);
  return figures;
}

export function benchEmulatorStore(): Promise<Figures> {
  return localServiceSideBySide(
    'emulator_store',
    [
      ['tuned', { tunedEmulatorStore: true }],
      ['dynalite', { tunedEmulatorStore: false }],
    ],
    envNumber('BENCH_STORE_CREATES') ?? 400,
    envNumber('BENCH_STORE_ROUNDS') ?? 3,
  );
}

/**
 * The service's own DynamoDB calls over a MessagePort to the emulator's thread (the runtime's
 * default, infra/local/dynamo-port.ts) against loopback HTTP, the rest alike. BENCH_STORE_CREATES
 * and BENCH_STORE_ROUNDS size it as they size the store's.
 */
export function benchEmulatorTransport(): Promise<Figures> {
  return localServiceSideBySide(
    'emulator_transport',
    [
      ['port', { dynamoTransport: 'port' }],
      ['http', { dynamoTransport: 'http' }],
    ],
    envNumber('BENCH_STORE_CREATES') ?? 400,
    envNumber('BENCH_STORE_ROUNDS') ?? 3,
  );
}

runWhenMain(import.meta.url, benchEmulatorStore);
