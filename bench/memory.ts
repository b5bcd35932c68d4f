// Benchmark of the local runtime's memory on `npm start` defaults (data on disk, paging on: a team
// with one person on call, every webhook an alert that pages them):
//   idle → N webhooks → 2N webhooks → a rest of SETTLE seconds; at each point the process's RSS,
//   the main thread's heap/external/arrayBuffers (functions, fauxqs) and the dynalite thread's.
// The figure that matters is the slope: RSS growth from N to 2N per 1 000 alerts (flat is the
// target; ≤ 600 MB after 10 000 alerts). N is BENCH_MEMORY_N (default 2 000).
// BENCH_MEMORY_BASELINE=1 then runs the same load again on a runtime whose embedded DynamoDB leaves
// its iterators open as dynalite does (what held the memory, issue 21), figures prefixed
// `memory.baseline_iterators_left_open.`: before and after in one run. The baseline comes second,
// so the runtime as it is starts from a fresh process's memory; the baseline's slope is its own.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { readCounts } from '../lib/store/counters';
import { typeOf } from '../lib/entities';
import { atRest, startLocalService, waitUntil, type LocalService } from './local-service';
import { envNumber, LoadThread, round, runWhenMain, type Figures } from './support';

const MB = 2 ** 20;
/** Webhooks the load thread is given at once. */
const SLICE = 2_000;
const mb = (bytes: number) => round(bytes / MB, 1);

interface Options {
  alerts?: number;
  settleSeconds?: number;
  concurrency?: number;
  /** The emulator's data in memory instead of on disk (to tell LevelDB's share from the rest). */
  inMemory?: boolean;
  /** Also measure dynalite's own behaviour (iterators left open) first, in the same run. */
  baseline?: boolean;
}

/**
 * The process's resident memory by kind (Linux): anonymous (heaps, malloc) apart from file-backed
 * pages (LevelDB's memory-mapped table files, which the kernel may drop at will); zeros elsewhere.
 */
function residentByKind(): { anon: number; file: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { anon: kb('RssAnon'), file: kb('RssFile') };
  } catch {
    return { anon: 0, file: 0 };
  }
}

interface Snapshot {
  rss: number;
  rssAnon: number;
  rssFile: number;
  mainHeap: number;
  mainHeapTotal: number;
  dynamoHeapTotal: number;
  mainExternal: number;
  mainArrayBuffers: number;
  dynamoHeap: number;
  dynamoExternal: number;
  dynamoArrayBuffers: number;
  leveldb: number;
  openIterators: number;
}

async function snapshot(service: LocalService): Promise<Snapshot> {
  const main = process.memoryUsage();
  const dynamo = await service.runtime.emulators.dynamoMemory();
  const resident = residentByKind();
  return {
    rss: main.rss,
    rssAnon: resident.anon,
    rssFile: resident.file,
    mainHeap: main.heapUsed,
    mainHeapTotal: main.heapTotal,
    dynamoHeapTotal: dynamo?.heapTotal ?? 0,
    mainExternal: main.external,
    mainArrayBuffers: main.arrayBuffers,
    dynamoHeap: dynamo?.heapUsed ?? 0,
    dynamoExternal: dynamo?.external ?? 0,
    dynamoArrayBuffers: dynamo?.arrayBuffers ?? 0,
    leveldb: dynamo?.leveldbBytes ?? 0,
    openIterators: dynamo?.openIterators ?? 0,
  };
}

function figuresOf(at: string, s: Snapshot): Figures {
  return {
    [`memory.${at}.rss_mb`]: mb(s.rss),
    [`memory.${at}.rss_anon_mb`]: mb(s.rssAnon),
    [`memory.${at}.rss_file_mb`]: mb(s.rssFile),
    [`memory.${at}.main_heap_mb`]: mb(s.mainHeap),
    [`memory.${at}.main_heap_total_mb`]: mb(s.mainHeapTotal),
    [`memory.${at}.dynalite_heap_total_mb`]: mb(s.dynamoHeapTotal),
    [`memory.${at}.main_external_mb`]: mb(s.mainExternal),
    [`memory.${at}.main_array_buffers_mb`]: mb(s.mainArrayBuffers),
    [`memory.${at}.dynalite_heap_mb`]: mb(s.dynamoHeap),
    [`memory.${at}.dynalite_external_mb`]: mb(s.dynamoExternal),
    [`memory.${at}.leveldb_mb`]: mb(s.leveldb),
    [`memory.${at}.dynalite_open_iterators`]: s.openIterators,
  };
}

export async function benchMemory(options: Options = {}): Promise<Figures> {
  if (!(options.baseline ?? process.env.BENCH_MEMORY_BASELINE === '1')) return measure(options, true);
  const after = await measure(options, true);
  const before = await measure(options, false);
  const baseline: Figures = {};
  for (const [name, value] of Object.entries(before)) baseline[name.replace(/^memory\./, 'memory.baseline_iterators_left_open.')] = value;
  return { ...after, ...baseline };
}

async function measure(options: Options, closeEmulatorIterators: boolean): Promise<Figures> {
  const n = options.alerts ?? envNumber('BENCH_MEMORY_N') ?? 2_000;
  const concurrency = options.concurrency ?? 32;
  const service = await startLocalService({
    inMemory: options.inMemory ?? process.env.BENCH_MEMORY_DATA === 'memory',
    closeEmulatorIterators,
  });
  const load = new LoadThread();
  let sent = 0;
  let refused = 0;
  const alertsCreated = async () => (await readCounts(service.accountId, typeOf('alert'))).total ?? 0;
  /** Posts `count` new webhooks; one answered other than 202 is sent again, as a sender retries (same id: deduplicated). */
  const send = async (count: number) => {
    // In slices, each sent once the alerts have caught up with all but the last one: the sender's
    // requests (the load thread is in this process) and the queues' backlog stay a few MB whatever
    // N, so the resident memory measured is the runtime's after N alerts, not a queue of N webhooks.
    for (let left = count; left > 0; left -= SLICE) {
      const caughtUp = sent - SLICE;
      await waitUntil(async () => (await alertsCreated()) >= caughtUp, `${caughtUp} alerts`);
      let ops = Array.from({ length: Math.min(SLICE, left) }, () => {
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
    }
    await waitUntil(async () => (await alertsCreated()) >= sent, `${sent} alerts`);
    await waitUntil(() => atRest(service), 'the runtime to come to rest');
  };
  const trace = process.env.BENCH_MEMORY_TRACE
    ? setInterval(() => {
        void Promise.all([snapshot(service), alertsCreated()]).then(([s, alerts]) =>
          console.log(
            `trace rss=${mb(s.rss)} anon=${mb(s.rssAnon)} file=${mb(s.rssFile)} main=${mb(s.mainHeap)}/${mb(s.mainHeapTotal)} ext=${mb(s.mainExternal)} dyn=${mb(s.dynamoHeap)}/${mb(s.dynamoHeapTotal)} dynext=${mb(s.dynamoExternal)} leveldb=${mb(s.leveldb)} iterators=${s.openIterators} sent=${sent} alerts=${alerts}`,
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
    const settleSeconds = options.settleSeconds ?? envNumber('BENCH_MEMORY_SETTLE_S') ?? 30;
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
      'memory.malloc_arena_max': process.env.MALLOC_ARENA_MAX ?? 'default',
    };
  } finally {
    clearInterval(trace);
    await load.close();
    await service.stop();
  }
}

runWhenMain(import.meta.url, () => benchMemory());
