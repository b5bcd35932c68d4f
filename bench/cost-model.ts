// What a month of alerts costs on AWS, from what the benchmarks measured per alert life (the
// DynamoDB units of `npm run bench alert-life`; the API requests, queue messages, invocations and
// their durations of `npm run bench cost`) and what the synthesized stack keeps running whatever the
// alerts. Pure arithmetic: the README's cost table is rendered from it (bench/readme-figures.ts) and
// test/bench/cost-model.test.ts checks it against the inputs.

/** On-demand list prices, us-east-1, as checked in November 2026 (DynamoDB's since its November 2024 cut). */
export const PRICES = {
  checked: '2026-11',
  region: 'us-east-1',
  /** USD per write / read request unit (DynamoDB on demand). */
  dynamodbWriteUnit: 0.625 / 1e6,
  dynamodbReadUnit: 0.125 / 1e6,
  /** USD per request (Lambda), and per GB-second of duration by architecture. */
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: { x86_64: 0.0000166667, arm64: 0.0000133334 },
  /** USD per SQS request (standard queue; a batch of up to 10 messages is one request). */
  sqsRequest: 0.4 / 1e6,
  /** USD per HTTP API request (API Gateway, first 300 million a month). */
  httpApiRequest: 1.0 / 1e6,
  /** USD a month: a standard-resolution CloudWatch alarm, a dashboard, a customer-managed KMS key, a
   * Secrets Manager secret. */
  alarmMonth: 0.1,
  dashboardMonth: 3,
  kmsKeyMonth: 1,
  secretMonth: 0.4,
} as const;

export type Prices = typeof PRICES;
export type Architecture = keyof Prices['lambdaGbSecond'];

/** One function's invocations in an alert life: how many, how long each on average, with how much memory. */
export interface Invocations {
  count: number;
  meanMs: number;
  memoryMb: number;
}

/** What one alert life uses, as measured. */
export interface LifeUsage {
  writeUnits: number;
  readUnits: number;
  apiRequests: number;
  /** Sends, receives and deletes. */
  sqsRequests: number;
  /** By function. */
  invocations: Record<string, Invocations>;
  architecture: Architecture;
}

/** What runs whatever the alerts: counted in the synthesized stack, and the scheduled sweeper. */
export interface IdleUsage {
  alarms: number;
  dashboards: number;
  kmsKeys: number;
  secrets: number;
  /** The scheduled function's runs a month and one idle run. */
  scheduledRunsPerMonth: number;
  scheduled: Omit<Invocations, 'count'>;
  architecture: Architecture;
}

export interface MonthlyCost {
  dynamodbWrites: number;
  dynamodbReads: number;
  lambdaRequests: number;
  lambdaDuration: number;
  sqs: number;
  httpApi: number;
  total: number;
}

/** GB-seconds as Lambda bills them: each invocation's duration rounded up to the millisecond. */
export function gbSeconds(invocations: Invocations): number {
  return invocations.count * (invocations.memoryMb / 1024) * (Math.ceil(invocations.meanMs) / 1000);
}

/** USD a month for `alerts` alert lives. */
export function monthlyCost(life: LifeUsage, alerts: number, prices: Prices = PRICES): MonthlyCost {
  const runs = Object.values(life.invocations);
  const parts = {
    dynamodbWrites: alerts * life.writeUnits * prices.dynamodbWriteUnit,
    dynamodbReads: alerts * life.readUnits * prices.dynamodbReadUnit,
    lambdaRequests: alerts * runs.reduce((sum, r) => sum + r.count, 0) * prices.lambdaRequest,
    lambdaDuration: alerts * runs.reduce((sum, r) => sum + gbSeconds(r), 0) * prices.lambdaGbSecond[life.architecture],
    sqs: alerts * life.sqsRequests * prices.sqsRequest,
    httpApi: alerts * life.apiRequests * prices.httpApiRequest,
  };
  return { ...parts, total: Object.values(parts).reduce((sum, n) => sum + n, 0) };
}

export interface IdleCost {
  alarms: number;
  dashboards: number;
  kmsKeys: number;
  secrets: number;
  scheduled: number;
  total: number;
}

/** USD a month that the stack costs with no alert at all. */
export function idleCost(idle: IdleUsage, prices: Prices = PRICES): IdleCost {
  const runs = { count: idle.scheduledRunsPerMonth, ...idle.scheduled };
  const parts = {
    alarms: idle.alarms * prices.alarmMonth,
    dashboards: idle.dashboards * prices.dashboardMonth,
    kmsKeys: idle.kmsKeys * prices.kmsKeyMonth,
    secrets: idle.secrets * prices.secretMonth,
    scheduled: runs.count * prices.lambdaRequest + gbSeconds(runs) * prices.lambdaGbSecond[idle.architecture],
  };
  return { ...parts, total: Object.values(parts).reduce((sum, n) => sum + n, 0) };
}

/** Runs a month of a schedule expression `rate(N minute|minutes|hour|hours|day|days)` (30-day month). */
export function runsPerMonth(schedule: string): number {
  const match = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(schedule);
  if (!match) throw new Error(`not a rate expression: ${schedule}`);
  const minutes = { minute: 1, hour: 60, day: 1440 }[match[2].replace(/s$/, '') as 'minute' | 'hour' | 'day'];
  return (30 * 24 * 60) / (Number(match[1]) * minutes);
}
