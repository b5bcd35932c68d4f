// Reads the service's metrics as CloudWatch would: the EMF lines Powertools Metrics writes on the
// process's stdout (lib/metrics.ts), kept while a capture runs, other output passed through.
import { vi } from 'vitest';

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [field: string]: unknown;
}

/** One value of a metric as a line carried it, with the line's dimensions. */
export interface MetricValue {
  name: string;
  unit: string;
  value: number;
  dimensions: Record<string, string>;
  namespace: string;
}

export interface EmfCapture {
  /** Every value written since the capture started (or was cleared), one entry per value. */
  values(): MetricValue[];
  /** The values of one metric; with `dimensions`, only those whose dimensions are exactly `service` and these. */
  named(name: string, dimensions?: Record<string, string>): MetricValue[];
  clear(): void;
  stop(): void;
}

export function captureEmf(): EmfCapture {
  let written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.includes('"_aws"')) return write(chunk, ...(rest as []));
    written.push(text);
    return true;
  });
  const values = () =>
    written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.trim())
      .flatMap((line) => {
        const emf = JSON.parse(line) as EmfLine;
        return emf._aws.CloudWatchMetrics.flatMap((directive) => {
          const dimensions = Object.fromEntries(directive.Dimensions.flat().map((name) => [name, String(emf[name])]));
          return directive.Metrics.flatMap((metric) => {
            const raw = emf[metric.Name] as number | number[];
            return (Array.isArray(raw) ? raw : [raw]).map((value) => ({
              name: metric.Name,
              unit: metric.Unit,
              value,
              dimensions,
              namespace: directive.Namespace,
            }));
          });
        });
      });
  return {
    values,
    named: (name, dimensions) =>
      values().filter(
        (v) => v.name === name && (!dimensions || JSON.stringify(v.dimensions) === JSON.stringify({ service: 'oncall', ...dimensions })),
      ),
    clear: () => {
      written = [];
    },
    stop: () => spy.mockRestore(),
  };
}

export const sumOf = (values: MetricValue[]) => values.reduce((total, v) => total + v.value, 0);
