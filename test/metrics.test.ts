// Where the service's EMF lines go (lib/metrics.ts): in Lambda always, locally only when asked for
// (LOG_LEVEL=debug, or POWERTOOLS_METRICS_DISABLED=false), so `npm start` keeps a readable console;
// and what is recorded is written once, at the flush, then forgotten.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushMetrics, recordMetric } from '../lib/metrics';

const VARIABLES = ['POWERTOOLS_METRICS_DISABLED', 'AWS_LAMBDA_FUNCTION_NAME', 'LOG_LEVEL'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

function environment(values: Partial<Record<(typeof VARIABLES)[number], string>>): void {
  for (const name of VARIABLES) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
}

/** The EMF lines a flush writes on stdout. */
async function flushed(): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await flushMetrics();
  } finally {
    spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('metrics output', () => {
  it('writes nothing locally at the default log level, and forgets what was recorded', async () => {
    environment({ LOG_LEVEL: 'info' });
    recordMetric('timeToPage', 1200);
    expect(await flushed()).toEqual([]);
    environment({ AWS_LAMBDA_FUNCTION_NAME: 'oncall-sweeper' });
    expect(await flushed()).toEqual([]);
  });

  it('writes in Lambda: one line per set of dimensions, values of one metric together', async () => {
    environment({ AWS_LAMBDA_FUNCTION_NAME: 'oncall-escalation-worker' });
    recordMetric('timeToPage', 1200);
    recordMetric('timeToPage', 800);
    recordMetric('pagesSent', 1, { channel: 'sms' });
    recordMetric('deliveries', 1, { provider: 'ses' });
    recordMetric('deliveryFailures', 1, { provider: 'ses' });
    const lines = await flushed();
    expect(lines).toHaveLength(3);
    const [plain, channel, provider] = lines;
    expect(plain).toMatchObject({ service: 'oncall', TimeToPage: [1200, 800] });
    expect(channel).toMatchObject({ service: 'oncall', channel: 'sms', PagesSent: 1 });
    expect(provider).toMatchObject({ service: 'oncall', provider: 'ses', Deliveries: 1, DeliveryFailures: 1 });
    expect(provider._aws).toMatchObject({
      CloudWatchMetrics: [
        {
          Namespace: 'Oncall',
          Dimensions: [['service', 'provider']],
          Metrics: [
            { Name: 'Deliveries', Unit: 'Count' },
            { Name: 'DeliveryFailures', Unit: 'Count' },
          ],
        },
      ],
    });
    expect(await flushed()).toEqual([]);
  });

  it('writes locally when debug lines are shown, and never when POWERTOOLS_METRICS_DISABLED says so', async () => {
    environment({ LOG_LEVEL: 'debug' });
    recordMetric('timerLateness', 61_000);
    expect(await flushed()).toMatchObject([{ TimerLateness: 61_000 }]);
    environment({ AWS_LAMBDA_FUNCTION_NAME: 'oncall-sweeper', POWERTOOLS_METRICS_DISABLED: 'true' });
    recordMetric('timerLateness', 61_000);
    expect(await flushed()).toEqual([]);
  });
});
