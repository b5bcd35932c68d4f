// GET /api/v4/reports/alerts (contract §14, docs/api.md#reports): per day or week, what the alerts
// created in it have come to, summed from the per-day aggregates the alert writes keep
// (lib/alerts/created-at-store.ts): one Query of the window's days, whatever the account holds.
import type * as z from 'zod';
import { percentileSeconds } from '../alerts/duration-histogram';
import { readReportDays, type DayFigures, type DurationFigures } from '../alerts/created-at-store';
import type { Principal } from '../http/principal';
import { bucketsOf, dayString, parseReportQuery } from './report-window';
import type { AlertReportRow, AlertReportV4 } from './schemas';

const iso = (ms: number) => new Date(ms).toISOString();

function emptyDurations(): DurationFigures {
  return { count: 0, sumMs: 0, histogram: new Map() };
}

function addDurations(into: DurationFigures, more: DurationFigures): void {
  into.count += more.count;
  into.sumMs += more.sumMs;
  for (const [bucket, n] of more.histogram) into.histogram.set(bucket, (into.histogram.get(bucket) ?? 0) + n);
}

function statsOf(figures: DurationFigures): z.input<typeof AlertReportRow>['mtta'] {
  if (figures.count === 0) return { mean: null, p50: null, p90: null };
  return {
    mean: Math.round(figures.sumMs / figures.count) / 1000,
    p50: percentileSeconds(figures.histogram, 0.5),
    p90: percentileSeconds(figures.histogram, 0.9),
  };
}

function rowOf(start: number, end: number, days: readonly DayFigures[]): z.input<typeof AlertReportRow> {
  const acknowledged = emptyDurations();
  const resolved = emptyDurations();
  let created = 0;
  let dropped = 0;
  for (const day of days) {
    created += day.created;
    dropped += day.dropped;
    addDurations(acknowledged, day.acknowledged);
    addDurations(resolved, day.resolved);
  }
  return {
    start: iso(start),
    end: iso(end),
    created,
    acknowledged: acknowledged.count,
    resolved: resolved.count,
    dropped,
    mtta: statsOf(acknowledged),
    mttr: statsOf(resolved),
  };
}

export async function alertReport(principal: Principal, params: URLSearchParams): Promise<z.input<typeof AlertReportV4>> {
  const window = await parseReportQuery(principal, params, { buckets: true });
  const days = await readReportDays(principal.accountId, dayString(window.start), dayString(window.end - 1), window.teamId ?? undefined);
  const buckets = bucketsOf(window);
  const daysOf = buckets.map((): DayFigures[] => []);
  for (const day of days) {
    const ms = Date.parse(`${day.day}T00:00:00.000Z`);
    daysOf[buckets.findIndex((bucket) => ms >= bucket.start && ms < bucket.end)]?.push(day);
  }
  return {
    start: iso(window.start),
    end: iso(window.end),
    bucket: window.bucket,
    team_id: window.teamId,
    buckets: buckets.map((bucket, i) => rowOf(bucket.start, bucket.end, daysOf[i])),
    total: rowOf(window.start, window.end, days),
  };
}
