// The service's own figures (README "Monitoring"): time to page, pages per channel, deliveries and
// their failures per provider, webhook accepted → alert created, escalation timer lateness, the
// canary. Written as CloudWatch Embedded Metric Format lines on stdout through Powertools Metrics:
// CloudWatch Logs turns them into metrics, so recording one costs no API call and no wait.
// What a request records is kept here and written once per invocation (`flushInvocation`, called by
// the HTTP handler, the queue workers and the sweeper, with the log lines that wait for the Logger),
// so the package is loaded, and its Metrics object made, only by an invocation that recorded
// something: a cold start does neither.
// Locally (`npm start`, tests) the lines would drown the console, so they are written only where
// lib/log.ts would show debug lines (LOG_LEVEL=debug) or where POWERTOOLS_METRICS_DISABLED=false
// asks for them; in Lambda always, unless POWERTOOLS_METRICS_DISABLED=true.
// Dimensions stay few and low in cardinality (a channel, a provider): never an account, alert or person.
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logsWritten } from './log';

/** The CloudWatch namespace of every metric here (infra/constructs/monitoring.ts alarms on them). */
export const METRICS_NAMESPACE = 'Oncall';
/** Powertools' `service` dimension, on every metric. */
export const METRICS_SERVICE = 'oncall';

/** Every metric the service writes, its unit and the dimensions it carries beside `service`. */
export const METRIC = {
  /** An alert's creation → the first notification of its first page that a provider took, per person paged (ms). */
  timeToPage: { name: 'TimeToPage', unit: 'Milliseconds', dimensions: [] },
  /** A page's notification that a provider took, by channel. */
  pagesSent: { name: 'PagesSent', unit: 'Count', dimensions: ['channel'] },
  /** Every provider call for a notification, by provider (the failure rate's denominator). */
  deliveries: { name: 'Deliveries', unit: 'Count', dimensions: ['provider'] },
  /** A provider call that failed (refused, unreachable, no address, no provider configured), by provider. */
  deliveryFailures: { name: 'DeliveryFailures', unit: 'Count', dimensions: ['provider'] },
  /** A webhook's log stored (its 202) → the alert it creates stored (ms). */
  webhookToAlert: { name: 'WebhookToAlert', unit: 'Milliseconds', dimensions: [] },
  /** An escalation step's due time → the step run (ms). */
  timerLateness: { name: 'TimerLateness', unit: 'Milliseconds', dimensions: [] },
  /** The canary's alert started → its first notification sent (ms). */
  canaryTimeToPage: { name: 'CanaryTimeToPage', unit: 'Milliseconds', dimensions: [] },
  /** A canary alert paged its team in time. */
  canarySucceeded: { name: 'CanarySucceeded', unit: 'Count', dimensions: [] },
  /** A canary alert that paged nobody by its deadline. */
  canaryFailed: { name: 'CanaryFailed', unit: 'Count', dimensions: [] },
} as const;

type MetricKey = keyof typeof METRIC;
type DimensionsOf<K extends MetricKey> = Record<(typeof METRIC)[K]['dimensions'][number], string>;

interface Point {
  key: MetricKey;
  value: number;
  dimensions: Record<string, string>;
}

const pending: Point[] = [];

/** Keeps one value of a metric until the invocation's flush. */
export function recordMetric<K extends MetricKey>(
  key: K,
  value: number,
  ...dimensions: keyof DimensionsOf<K> extends never ? [] : [DimensionsOf<K>]
): void {
  if (!Number.isFinite(value)) return;
  pending.push({ key, value: Math.max(0, value), dimensions: dimensions[0] ?? {} });
}

/** Whether EMF lines are written here (see the header). */
export function metricsWritten(): boolean {
  const disabled = process.env.POWERTOOLS_METRICS_DISABLED?.toLowerCase();
  if (disabled === 'true' || disabled === '1') return false;
  if (disabled === 'false' || disabled === '0') return true;
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) return true;
  return (process.env.LOG_LEVEL ?? '').toLowerCase() === 'debug';
}

const MAX_VALUES_PER_LINE = 99;

let made: Promise<Metrics> | undefined;

function metricsObject(): Promise<Metrics> {
  made ??= import('@aws-lambda-powertools/metrics').then(
    ({ Metrics }) => new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE }),
  );
  return made;
}

/**
 * Writes what was recorded since the last flush: one EMF line per set of dimensions (a line's
 * dimensions apply to all its metrics; up to 100 values of one metric share a line). Never throws:
 * a figure lost is not worth a failed invocation.
 */
export async function flushMetrics(): Promise<void> {
  if (pending.length === 0) return;
  const points = pending.splice(0);
  if (!metricsWritten()) return;
  try {
    const metrics = await metricsObject();
    const lines = new Map<string, Point[]>();
    for (const point of points) {
      const set = JSON.stringify(Object.entries(point.dimensions).sort());
      lines.set(set, [...(lines.get(set) ?? []), point]);
    }
    for (const group of lines.values()) {
      // Powertools publishes by itself at 100 values of a metric, and clears the dimensions then: a line holds fewer.
      for (let start = 0; start < group.length; start += MAX_VALUES_PER_LINE) {
        for (const [name, value] of Object.entries(group[0].dimensions)) metrics.addDimension(name, value);
        for (const point of group.slice(start, start + MAX_VALUES_PER_LINE))
          metrics.addMetric(METRIC[point.key].name, METRIC[point.key].unit, point.value);
        metrics.publishStoredMetrics();
      }
    }
  } catch {
    // Nothing to do: the next invocation records its own.
  }
}

/** What an invocation leaves to write before it ends: its metrics, and log lines waiting for the Logger (lib/log.ts). */
export async function flushInvocation(): Promise<void> {
  await Promise.all([flushMetrics(), logsWritten()]);
}

/** Runs an entry point's handler and writes its metrics and waiting log lines when it is done, however it ended. */
export function flushedAtEnd<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } finally {
      await flushInvocation();
    }
  };
}
