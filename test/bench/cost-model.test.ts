// The README's cost table is arithmetic on the benchmarks' figures: each part follows its inputs and
// the listed prices, a month of 1 000 000 alerts is 100 months of 10 000 for what the alerts use,
// and what idles does not grow with them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gbSeconds, idleCost, monthlyCost, PRICES, runsPerMonth, type IdleUsage, type LifeUsage } from '../../bench/cost-model';
import { costTable, idleUsage, lifeUsage, type BenchResults } from '../../bench/readme-figures';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const latest = JSON.parse(readFileSync(path.join(root, 'bench', 'results', 'latest.json'), 'utf8')) as BenchResults;

const life: LifeUsage = {
  writeUnits: 100,
  readUnits: 40,
  apiRequests: 3,
  sqsRequests: 10,
  // 99.2 ms is billed as 100 ms; 512 MB is half a GB.
  invocations: { alerts: { count: 2, meanMs: 99.2, memoryMb: 1024 }, worker: { count: 4, meanMs: 50, memoryMb: 512 } },
  architecture: 'arm64',
};

describe('a month of alerts', () => {
  it('prices each part from the units, requests and durations of one life', () => {
    const month = monthlyCost(life, 1_000_000);

    expect(month.dynamodbWrites).toBeCloseTo(62.5, 9); // 100 million write units at $0.625
    expect(month.dynamodbReads).toBeCloseTo(5, 9); // 40 million read units at $0.125
    expect(month.lambdaRequests).toBeCloseTo(1.2, 9); // 6 million invocations at $0.20
    // 2 × 1 GB × 0.1 s + 4 × 0.5 GB × 0.05 s = 0.3 GB-s a life; 300 000 GB-s at $0.0000133334
    expect(month.lambdaDuration).toBeCloseTo(300_000 * 0.0000133334, 9);
    expect(month.sqs).toBeCloseTo(4, 9); // 10 million requests at $0.40
    expect(month.httpApi).toBeCloseTo(3, 9); // 3 million requests at $1.00
    expect(month.total).toBeCloseTo(62.5 + 5 + 1.2 + 300_000 * 0.0000133334 + 4 + 3, 9);
  });

  it('grows with the alerts: a million is a hundred times ten thousand, part by part', () => {
    const [small, large] = [monthlyCost(life, 10_000), monthlyCost(life, 1_000_000)];
    for (const part of Object.keys(small) as (keyof typeof small)[]) expect(large[part]).toBeCloseTo(small[part] * 100, 9);
  });

  it('bills the duration at the price of the architecture the functions run on', () => {
    const arm = monthlyCost(life, 10_000).lambdaDuration;
    const x86 = monthlyCost({ ...life, architecture: 'x86_64' }, 10_000).lambdaDuration;
    expect(x86 / arm).toBeCloseTo(PRICES.lambdaGbSecond.x86_64 / PRICES.lambdaGbSecond.arm64, 9);
  });

  it('rounds each invocation up to the millisecond', () => {
    expect(gbSeconds({ count: 1, meanMs: 0.2, memoryMb: 1024 })).toBeCloseTo(0.001, 12);
    expect(gbSeconds({ count: 10, meanMs: 100, memoryMb: 2048 })).toBeCloseTo(2, 12);
  });
});

describe('what idles', () => {
  const idle: IdleUsage = {
    alarms: 65,
    dashboards: 1,
    kmsKeys: 2,
    secrets: 1,
    scheduledRunsPerMonth: 43_200,
    scheduled: { meanMs: 250, memoryMb: 512 },
    architecture: 'arm64',
  };

  it('is priced per resource and per scheduled run, whatever the alerts', () => {
    const cost = idleCost(idle);
    expect(cost.alarms).toBeCloseTo(6.5, 9);
    expect(cost.dashboards).toBe(3);
    expect(cost.kmsKeys).toBe(2);
    expect(cost.secrets).toBeCloseTo(0.4, 9);
    // 43 200 runs × 0.5 GB × 0.25 s = 5 400 GB-s, and the requests
    expect(cost.scheduled).toBeCloseTo(43_200 * 0.2e-6 + 5_400 * 0.0000133334, 9);
    expect(cost.total).toBeCloseTo(6.5 + 3 + 2 + 0.4 + cost.scheduled, 9);
  });

  it('counts a schedule’s runs in a 30-day month', () => {
    expect(runsPerMonth('rate(1 minute)')).toBe(43_200);
    expect(runsPerMonth('rate(5 minutes)')).toBe(8_640);
    expect(runsPerMonth('rate(1 day)')).toBe(30);
    expect(() => runsPerMonth('cron(0 * * * ? *)')).toThrow(/rate expression/);
  });
});

describe("the README's cost table", () => {
  it('is rendered from the figures of both benchmarks and follows them', () => {
    const changed: BenchResults = structuredClone(latest);
    changed.results['alert-life']['alert_life.write_units'] = 160;
    changed.results.cost['cost.alarms'] = 10;

    const rendered = costTable(changed);

    // 160 units × 10 000 × $0.625 per million = $1.00; × 1 000 000 = $100.00
    expect(rendered).toContain('| DynamoDB writes (160 units a life × $0.625 per million) | $1.00 | $100.00 |');
    expect(rendered).toContain('| CloudWatch alarms (10 × $0.10) | $1.00 | $1.00 |');
    const [small, large] = [monthlyCost(lifeUsage(changed), 10_000), monthlyCost(lifeUsage(changed), 1_000_000)];
    const idle = idleCost(idleUsage(changed)).total;
    const dollars = (n: number) => `$${n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}`;
    expect(rendered).toContain(`| **Month** | **${dollars(small.total + idle)}** | **${dollars(large.total + idle)}** |`);
  });

  it('refuses to render without the cost benchmark’s figures', () => {
    const missing: BenchResults = structuredClone(latest);
    delete missing.results.cost['cost.sqs_requests'];
    expect(() => costTable(missing)).toThrow(/cost figure cost.sqs_requests/);
  });
});
