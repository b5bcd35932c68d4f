// Shared pieces of the benchmarks: timing, percentiles and a keep-alive HTTP client, so a figure
// measures the service, not the client.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as z from 'zod';

// Benchmarks measure the service, not its request limits (bench/limits.ts measures those): a
// benchmark's single API key would meet the default 1 200 requests a minute. A runtime's own `env`
// (bench/limits.ts) still wins over these.
for (const name of ['API_RATE_LIMIT_PER_MINUTE', 'API_RATE_LIMIT_BURST', 'ACCOUNT_RATE_LIMIT_PER_MINUTE']) {
  process.env[name] ??= '10000000';
}

/** What a benchmark reports: its figures by name. A benchmark of pure code runs synchronously. */
export type Figures = Record<string, number | string>;

/** A small deterministic random source (a linear congruential generator): the accounts a benchmark
 * compares get the same mix. */
export function randomSource(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const listAnswer = z.object({ data: z.array(z.unknown()), total_count: z.number() });
/** A list answer's page and total_count, checked: a benchmark that reads another shape fails instead of reporting it. */
export const readList = (body: string) => listAnswer.parse(JSON.parse(body));

/**
 * The local runtime's schedule interval for a benchmark of requests: none in its time. Deployed, the
 * sweeper runs once a minute in a function of its own; the local runtime runs it every 10 s in the
 * process that answers the requests, and its ~50 shard queries at once hold the emulator for a second
 * or more on a busy machine, so requests caught behind them would measure the sweep, not the API.
 */
export const NO_PERIODIC_SWEEP = 3_600_000;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at];
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export async function timeOnce(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Times two operations side by side: rounds alternate between them, so both see the same
 * machine load and the ratio of their medians is fair on a shared, noisy machine.
 */
export async function sideBySide(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  options: { rounds?: number; perRound?: number; warmup?: number } = {},
): Promise<{ a: number[]; b: number[] }> {
  const { rounds = 20, perRound = 100, warmup = 200 } = options;
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const times = { a: [] as number[], b: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < perRound; i++) times.a.push(await timeOnce(a));
    for (let i = 0; i < perRound; i++) times.b.push(await timeOnce(b));
  }
  return times;
}

export interface HttpResult {
  status: number;
  body: string;
}

export class KeepAliveClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly url: URL;

  constructor(
    baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {
    this.url = new URL(baseUrl);
  }

  request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<HttpResult> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...this.headers,
            ...headers,
            ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A size or setting a benchmark takes from the environment (BENCH_…): a number, or undefined when unset. */
export const envNumber = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Runs `task` for `count` items with at most `concurrency` in flight. */
export async function pool<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

export type LoadTask =
  | {
      kind: 'http';
      baseUrl: string;
      concurrency: number;
      /** Paced: op i starts no earlier than i / perSecond seconds after the first. */
      perSecond?: number;
      ops: { method: string; path: string; headers?: Record<string, string>; body?: string }[];
    }
  | { kind: 'updateItem' | 'getItem' | 'putItem'; endpoint: string; concurrency: number; ops: Record<string, unknown>[] };

export interface LoadResult {
  latencies: number[];
  statuses: number[];
  /** When each op was answered (epoch ms). */
  answeredAt: number[];
  seconds: number;
}

/** The load generator thread (bench/load-thread.mjs): keeps the client off the server's event loop. */
export class LoadThread {
  private readonly worker = new Worker(new URL('./load-thread.mjs', import.meta.url));
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  constructor() {
    this.worker.on('message', ({ id, result, error }: { id: number; result?: LoadResult; error?: string }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error) waiter?.reject(new Error(error));
      else waiter?.resolve(result!);
    });
  }

  run(task: LoadTask): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, task });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Runs one benchmark when its file is the process's entry (`npx tsx bench/<name>.ts`): figures as a
 * table, exit 0; a failure printed, exit 1. `npm run bench` imports the same files and runs them itself.
 */
export function runWhenMain(moduleUrl: string, bench: () => Figures | Promise<Figures>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  // No top-level await: the modules must stay importable from CommonJS-compiled callers too.
  Promise.resolve()
    .then(bench)
    .then(
      (figures) => {
        console.table(figures);
        process.exit(0);
      },
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
}

/**
 * The scale benchmarks' measure (issue 14): each named query in a large account and in a small one,
 * side by side (both first checked to answer 200), printed as a table. Figures per name: p50 of each,
 * their ratio and the large account's total_count; and the largest ratio.
 */
export async function compareAtScale(
  large: KeepAliveClient,
  small: KeepAliveClient,
  paths: Record<string, { large: string; small: string }>,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const rows: Array<{ shape: string; p50_100k_ms: number; p50_100_ms: number; ratio: number; total_100k: number; total_100: number }> = [];
  for (const [name, path] of Object.entries(paths)) {
    const first = await large.request('GET', path.large);
    if (first.status !== 200) throw new Error(`${name}: ${first.status} ${first.body.slice(0, 300)}`);
    const firstSmall = await small.request('GET', path.small);
    if (firstSmall.status !== 200) throw new Error(`${name} (small): ${firstSmall.status} ${firstSmall.body.slice(0, 300)}`);
    const times = await sideBySide(
      () => large.request('GET', path.large),
      () => small.request('GET', path.small),
      { rounds: 4, perRound: 8, warmup: 4 },
    );
    const [a, b] = [median(times.a), median(times.b)];
    const row = {
      shape: name,
      p50_100k_ms: round(a, 2),
      p50_100_ms: round(b, 2),
      ratio: round(a / b, 2),
      total_100k: readList(first.body).total_count,
      total_100: readList(firstSmall.body).total_count,
    };
    rows.push(row);
    out[`${name}.p50_100k_ms`] = row.p50_100k_ms;
    out[`${name}.p50_100_ms`] = row.p50_100_ms;
    out[`${name}.ratio`] = row.ratio;
    out[`${name}.total_100k`] = row.total_100k;
  }
  console.table(rows);
  out.max_ratio = Math.max(...rows.map((r) => r.ratio));
  return out;
}
