// The embedded DynamoDB's store access on `npm start` defaults (data on disk, paging on), side by
// side: the store as the runtime runs it (table descriptions kept, the writes of one turn batched:
// infra/local/dynalite-worker.mjs) and dynalite's own (every request reads its table's description,
// every index entry a write of its own). Alternating rounds, each on a fresh runtime: CREATES alerts
// through POST /api/v4/alerts at concurrency 16, then until every page is sent and the runtime is at
// rest, after a round of each side not counted (cold code). Per side, the medians of: alerts created
// a second, alerts paged and at rest a second, the process's CPU time an alert, how busy the
// dynalite thread was, and the calls that reached the store an alert; and the ratios of the two
// sides. BENCH_STORE_CREATES (default 400) and
// BENCH_STORE_ROUNDS (default 3) size it.
import { LoadThread, median, round, runWhenMain, type Figures } from './support';
import { startLocalService } from './local-service';
import { alertCreates, drained, expectAll, phaseMeter } from './throughput';

const envNumber = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

interface Round {
  createdPerSecond: number;
  pagedPerSecond: number;
  cpuMsPerAlert: number;
  dynaliteBusy: number;
  tableReadsPerAlert: number;
  storeWritesPerAlert: number;
}

async function oneRound(tuned: boolean, creates: number): Promise<Round> {
  const service = await startLocalService({ outbox: 'log', tunedEmulatorStore: tuned });
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
    const phase = meter.figures(from, 'store', creates);
    const after = (await service.runtime.emulators.dynamoStoreCalls())!;
    return {
      createdPerSecond: creates / created.seconds,
      pagedPerSecond: creates / (restMs / 1000),
      cpuMsPerAlert: Number(phase['throughput.store.process_cpu_ms_per_alert']),
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

export async function benchEmulatorStore(): Promise<Figures> {
  const creates = envNumber('BENCH_STORE_CREATES') ?? 400;
  const rounds = envNumber('BENCH_STORE_ROUNDS') ?? 3;
  const sides: Record<'tuned' | 'dynalite', Round[]> = { tuned: [], dynalite: [] };
  // A first runtime in the process meets cold code (the functions' modules, the JIT): a round of each side, not counted.
  for (const tuned of [true, false]) await oneRound(tuned, Math.min(creates, 100));
  for (let r = 0; r < rounds; r++) {
    // Which side goes first alternates too: neither always meets the machine first.
    for (const side of r % 2 === 0 ? (['tuned', 'dynalite'] as const) : (['dynalite', 'tuned'] as const)) {
      sides[side].push(await oneRound(side === 'tuned', creates));
      console.log(`[emulator-store] round ${r + 1} ${side}: ${JSON.stringify(sides[side].at(-1))}`);
    }
  }
  const figures: Figures = { 'emulator_store.creates': creates, 'emulator_store.rounds': rounds };
  const keys = Object.keys(sides.tuned[0]) as (keyof Round)[];
  for (const side of ['tuned', 'dynalite'] as const)
    for (const key of keys) figures[`emulator_store.${side}.${key}`] = round(median(sides[side].map((r) => r[key])), 2);
  for (const key of ['createdPerSecond', 'pagedPerSecond', 'cpuMsPerAlert'] as const)
    figures[`emulator_store.tuned_to_dynalite.${key}`] = round(
      median(sides.tuned.map((r) => r[key])) / median(sides.dynalite.map((r) => r[key])),
      3,
    );
  return figures;
}

runWhenMain(import.meta.url, benchEmulatorStore);
