// Sustained load on the local runtime with `npm start`'s defaults (issue 21): webhooks paced at
// RATE a second for SECONDS (50 a second for 10 minutes by default; BENCH_SUSTAINED_PER_SECOND,
// BENCH_SUSTAINED_SECONDS), each an alert that pages the team's person on call. Time to page (the
// webhook's 202 → its first page's sent_at) p50/p99 over the run and in its worst minute, how long
// after the last 202 the last page went out, the process's CPU an alert and its memory minute by
// minute: a pipeline that keeps up has no minute worse than the first and no backlog at the end.
// The team's policy is one layer of 5 minutes: from the sixth minute on, the alerts of five minutes
// before exhaust it (dropped, the team told) while new ones arrive, as they would on a real team.
import os from 'node:os';
import { atRest, startLocalService, waitUntil } from './local-service';
import { drained, expectAll, firstPageByThirdparty, phaseMeter, webhookOps } from './throughput';
import { envNumber, LoadThread, percentile, round, runWhenMain, type Figures } from './support';

export interface SustainedOptions {
  perSecond?: number;
  seconds?: number;
}

const MB = 2 ** 20;
/** In flight at most: a paced sender's requests overlap only while the server is slow to answer. */
const CONCURRENCY = 32;
const PREFIX = 'sustained';

export async function benchSustained(options: SustainedOptions = {}): Promise<Figures> {
  const perSecond = options.perSecond ?? envNumber('BENCH_SUSTAINED_PER_SECOND') ?? 50;
  const seconds = options.seconds ?? envNumber('BENCH_SUSTAINED_SECONDS') ?? 600;
  const count = Math.round(perSecond * seconds);
  const service = await startLocalService({ outbox: 'log' });
  const load = new LoadThread();
  const meter = phaseMeter(service);
  // Memory and machine load by minute of the run (the first sample when the load starts).
  const samples: { at: number; rssMb: number; load: number }[] = [];
  const sample = () => samples.push({ at: Date.now(), rssMb: process.memoryUsage.rss() / MB, load: os.loadavg()[0] });
  try {
    await waitUntil(() => atRest(service), 'the runtime to come to rest', 60_000, 100);
    sample();
    const sampler = setInterval(sample, 60_000);
    const from = meter.start();
    const started = Date.now();
    let sent;
    try {
      sent = await load.run({
        kind: 'http',
        baseUrl: service.runtime.url,
        concurrency: CONCURRENCY,
        perSecond,
        ops: webhookOps(service, PREFIX, count),
      });
    } finally {
      clearInterval(sampler);
    }
    expectAll(sent.statuses, 202, 'sustained webhooks');
    const lastAccepted = Math.max(...sent.answeredAt);
    const restMs = (await drained(service, started)) - (lastAccepted - started);
    // CPU an alert, the threads' busyness and the AWS calls an alert, over the run and the rest after it.
    const phase = meter.figures(from, 'sustained', count);
    sample();

    let pagedAt = new Map<string, number>();
    const allPaged = async () => {
      pagedAt = await firstPageByThirdparty(service);
      return [...pagedAt.keys()].filter((id) => id.startsWith(`${PREFIX}-`)).length >= count;
    };
    await waitUntil(allPaged, 'every alert paged', 60_000, 1_000).catch(() => undefined);
    const toPage = sent.answeredAt.map((at, i) => (pagedAt.get(`${PREFIX}-${i}`) ?? NaN) - at);
    const unpaged = toPage.filter((ms) => Number.isNaN(ms)).length;
    const sorted = (values: number[]) => values.filter((ms) => !Number.isNaN(ms)).sort((a, b) => a - b);
    // By minute of sending (the minute the webhook was answered in).
    const minutes = new Map<number, number[]>();
    sent.answeredAt.forEach((at, i) => {
      const minute = Math.floor((at - started) / 60_000);
      if (!minutes.has(minute)) minutes.set(minute, []);
      minutes.get(minute)!.push(toPage[i]);
    });
    const byMinute = [...minutes.entries()].sort((a, b) => a[0] - b[0]).map(([, values]) => sorted(values));
    const p99s = byMinute.map((values) => percentile(values, 99));
    const worst = p99s.indexOf(Math.max(...p99s));
    const all = sorted(toPage);
    // The pages' backlog: when the last alert's first page went out, after the last 202.
    const lastPaged = Math.max(...sent.answeredAt.map((_, i) => pagedAt.get(`${PREFIX}-${i}`) ?? -Infinity));
    const rss = samples.map((s) => round(s.rssMb, 0));
    return {
      'sustained.per_s': perSecond,
      'sustained.seconds': seconds,
      'sustained.alerts': count,
      'sustained.posted_per_s': round(count / sent.seconds, 1),
      'sustained.time_to_page_p50_ms': round(percentile(all, 50), 1),
      'sustained.time_to_page_p99_ms': round(percentile(all, 99), 1),
      'sustained.time_to_page_max_ms': round(all[all.length - 1], 1),
      'sustained.worst_minute': worst + 1,
      'sustained.worst_minute_p99_ms': round(p99s[worst], 1),
      'sustained.first_minute_p99_ms': round(p99s[0], 1),
      'sustained.last_minute_p99_ms': round(p99s[p99s.length - 1], 1),
      'sustained.p99_by_minute_ms': p99s.map((ms) => round(ms, 0)).join(' '),
      'sustained.alerts_unpaged': unpaged,
      'sustained.pages_done_after_last_accept_s': round((lastPaged - lastAccepted) / 1000, 1),
      // Every queue empty and every worker idle: the alerts' later steps (a layer's timeout, the
      // policy exhausted) that came due meanwhile included.
      'sustained.at_rest_after_last_accept_s': round(restMs / 1000, 1),
      ...phase,
      'sustained.rss_mb_by_minute': rss.join(' '),
      'sustained.rss_mb_start': rss[0],
      'sustained.rss_mb_end': rss[rss.length - 1],
      'sustained.load_average_1m_mean': round(samples.reduce((sum, s) => sum + s.load, 0) / samples.length, 2),
    };
  } finally {
    meter.stop();
    await load.close();
    await service.stop();
  }
}

runWhenMain(import.meta.url, () => benchSustained());
