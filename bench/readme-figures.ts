// The README's benchmark figures, rendered from bench/results/latest.json between two markers, so a
// figure in the README is always one the benchmarks measured. `npm run bench` rewrites the block at
// the end of every run; `npm run bench:readme` rewrites it from the results file alone. What the
// figures mean and why some miss their target is prose outside the block; their history is in git.
import { readFileSync, writeFileSync } from 'node:fs';
import { idleCost, monthlyCost, PRICES, type Architecture, type IdleUsage, type LifeUsage, type Prices } from './cost-model';

export const BENCH_START = '<!-- bench:start -->';
export const BENCH_END = '<!-- bench:end -->';

type Figures = Record<string, number | string>;

export interface BenchResults {
  when: string;
  machine: { cpus: number; model?: string; memoryGiB?: number; node: string };
  results: Record<string, Figures>;
}

/** A figure the README needs that the results file lacks is an error: a stale block must not pass. */
function figure(results: BenchResults, bench: string, name: string): number {
  const value = results.results[bench]?.[name];
  if (typeof value !== 'number') throw new Error(`bench/results/latest.json has no ${bench} figure ${name}`);
  return value;
}

function text(results: BenchResults, bench: string, name: string): string {
  const value = results.results[bench]?.[name];
  if (typeof value !== 'string') throw new Error(`bench/results/latest.json has no ${bench} text ${name}`);
  return value;
}

/** Rounded to `digits` decimals, thousands grouped by spaces as the README writes them (1 711). */
function num(value: number, digits = 0): string {
  const [whole, fraction] = Math.abs(value).toFixed(digits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${value < 0 ? '−' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** A figure as the benchmark rounded it (2.4 stays 2.4, 1 stays 1). */
const raw = (value: number) => String(value);

/** Functions by the names the stack gives them (bench/platform.ts measures each bundle). */
const FUNCTION_NAMES: Record<string, string> = {
  smsInbound: 'SMS replies',
  routingWorker: 'the routing worker',
  escalationWorker: 'the escalation worker',
  ingestWorker: 'the ingest worker',
  webhookWorker: 'the webhook worker',
  slack: 'the Slack function',
};

const functionName = (key: string) => FUNCTION_NAMES[key] ?? key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/** The target of issue 21 for every function's code (test/infra/bundles.test.ts holds each to it). */
const BUNDLE_BUDGET_KIB = 600;

function bundles(results: BenchResults): string {
  const platform = results.results.platform ?? {};
  const sizes = Object.entries(platform)
    // What each function loads at start (`bundle_<name>_kib`), not its chunks loaded on first use.
    .filter(
      ([key, value]) =>
        key.startsWith('bundle_') && key.endsWith('_kib') && !key.endsWith('_on_first_use_kib') && typeof value === 'number',
    )
    .map(([key, value]) => ({ name: functionName(key.slice('bundle_'.length, -'_kib'.length)), kib: value as number }))
    .sort((a, b) => b.kib - a.kib);
  if (sizes.length === 0) throw new Error('bench/results/latest.json has no platform bundle figures');
  const [largest, ...others] = sizes;
  const over = others.filter((size) => size.kib > BUNDLE_BUDGET_KIB);
  const rest = others.filter((size) => size.kib <= BUNDLE_BUDGET_KIB);
  const parts = [`${num(largest.kib)} KiB (${largest.name})`];
  if (over.length > 0) parts.push(`also over ${BUNDLE_BUDGET_KIB} KiB: ${over.map((size) => `${size.name} ${num(size.kib)}`).join(', ')}`);
  if (rest.length > 0) parts.push(`all others ≤ ${num(rest[0].kib)} KiB`);
  const init = `slowest initialisation ${num(figure(results, 'platform', 'slowest_init_ms'))} ms`;
  const sdk = platform.sdk_alone_init_ms;
  const ratio = platform.slowest_init_ratio;
  const versusSdk = typeof sdk === 'number' && typeof ratio === 'number' ? `, ${raw(ratio)}× importing the SDK alone (${num(sdk)} ms)` : '';
  // The same starts in CPU time, the steadier figure on a shared machine (bench/platform.ts importMs).
  const cpuRatio = platform.slowest_init_cpu_ratio;
  const inCpu = typeof cpuRatio === 'number' ? `; in CPU time the slowest is ${raw(cpuRatio)}×` : '';
  return `${parts.join('; ')}; ${init}${versusSdk}${inCpu}`;
}

function dedupCounts(results: BenchResults): string {
  const counts = JSON.parse(text(results, 'ingest', 'ingest.retry.dedup_counts')) as Record<string, number>;
  const alerts = num(figure(results, 'ingest', 'ingest.retry.alerts'));
  const entries = Object.entries(counts);
  if (entries.length === 1) return `${alerts} alerts, each \`dedup_count\` ${entries[0][0]}`;
  return `${alerts} alerts; \`dedup_count\`: ${entries.map(([count, n]) => `${count} × ${num(n)}`).join(', ')}`;
}

function perMinute(results: BenchResults, name: string): string {
  return (JSON.parse(text(results, 'ingest-limits', name)) as number[]).map((n) => num(n)).join(', ');
}

function earliest(results: BenchResults): string {
  const early = figure(results, 'paging', 'escalation.timers.early_min_ms');
  return early >= 0 ? 'never early' : `at worst ${num(-early)} ms early`;
}

type Row = [label: string, result: string, target: string];

/** `npm run bench failover`: every SMS refused, each page failing over to a call. */
function failoverRows(r: BenchResults): Row[] {
  const f = (name: string) => figure(r, 'failover', `failover.${name}`);
  return [
    [
      `Failover: SMS refused by End User Messaging → the page's call at the provider, ${num(f('pages'))} pages at ${num(f('rate_per_s'))}/s, p50 / p99`,
      `${num(f('sms_refused_to_call_p50_ms'))} ms / ${num(f('sms_refused_to_call_p99_ms'))} ms (max ${num(f('sms_refused_to_call_max_ms'))} ms); ${num(f('calls'))} calls, ${num(f('pages_never_called'))} pages never called, ${num(f('calls_twice_to_one_page'))} called twice; time to page under the same load ${num(f('yardstick_alert_to_sms_p50_ms'))} ms / ${num(f('yardstick_alert_to_sms_p99_ms'))} ms`,
      'every page called once',
    ],
  ];
}

/** `npm run bench slack`: pages by DM, team messages kept current, and clicks, against the Slack stand-in. */
function slackRows(r: BenchResults): Row[] {
  const f = (name: string) => figure(r, 'slack', name);
  const p50p99 = (name: string) => `p50 ${num(f(`${name}_p50_ms`))} ms / p99 ${num(f(`${name}_p99_ms`))} ms`;
  const timesAck = (pct: 'p50' | 'p99') => num(f(`click_to_200_${pct}_ms`) / f(`api_acknowledge_answer_${pct}_ms`), 1);
  return [
    [
      `Slack: alert created (201) → the page's \`chat.postMessage\` at the stand-in, ${num(f('pages'))} alerts to a team at 20/s`,
      `${p50p99('page_created_to_post')} (max ${num(f('page_created_to_post_max_ms'))} ms)`,
      '–',
    ],
    [
      `Slack: \`POST …/acknowledge\` sent → \`chat.update\` of the team channel message, ${num(f('acks'))} alerts, 8 at a time`,
      `${p50p99('ack_to_team_update')} (the API's own answer to those acknowledges: ${p50p99('api_acknowledge_answer')})`,
      '≤ 5 s',
    ],
    [
      `Slack: signed click (acknowledge from a page's DM, replaced through response_url) → 200, ${num(f('clicks'))} clicks, 4 at a time`,
      `${p50p99('click_to_200')} (${timesAck('p50')}× / ${timesAck('p99')}× the API's acknowledge in the same run; the DM replaced, after the queued transition: ${p50p99('click_to_result')})`,
      "≤ 300 ms p99 (Slack's limit is 3 s)",
    ],
  ];
}

function mainRows(r: BenchResults): Row[] {
  const f = (bench: string, name: string) => figure(r, bench, name);
  const paging = (name: string) => f('paging', `escalation.${name}`);
  return [
    [
      "`GET /api/v4/account_users/:id` (API key) ÷ one raw `GetItem` (a client's, over loopback HTTP as the GET), p50",
      `${raw(f('platform', 'api_overhead_ratio'))} (${raw(f('platform', 'api_to_service_get_item_ratio'))}× the service's own GetItem, in its process)`,
      '≤ 1.3',
    ],
    ['`GET /api/v4/account_users?limit=10`, 10 000 users ÷ 10 users', raw(f('platform', 'list_scale_ratio')), '≤ 3'],
    ['Largest function bundle; slowest module initialisation', bundles(r), '≤ 600 KiB; ≤ 1.2× the SDK alone'],
    [
      '`window_events` engine time, one year, 50 repeating events + 100 overrides + 100 exceptions',
      `${num(f('oncall', 'oncall.year_window.median_ms'))} ms`,
      `≤ ${num(f('oncall', 'oncall.year_window.target_ms'))} ms`,
    ],
    [
      'Same window, event begun 10 years ago ÷ begun last month',
      num(f('oncall', 'oncall.age.ratio'), 2),
      `≤ ${raw(f('oncall', 'oncall.age.target_ratio'))}`,
    ],
    ['Acknowledge p50 ÷ raw conditional `UpdateItem` p50, 16 in flight (1 000 alerts)', raw(f('alerts', 'ack_to_raw_p50_ratio')), '≤ 2.0'],
    ['`GET /api/v4/alerts?status=open&limit=10`, 100 000 alerts ÷ 100', raw(f('alerts', 'list_scale_ratio')), '≤ 3'],
    [
      '`POST /integration/:id` answered 202, 32 in flight for 10 s',
      `${num(f('ingest', 'ingest.accept.per_second'))}/s (p50 ${num(f('ingest', 'ingest.accept.p50_ms'))} ms, p99 ${num(f('ingest', 'ingest.accept.p99_ms'))} ms)`,
      `≥ ${num(f('ingest', 'ingest.accept.target_per_second'))}/s`,
    ],
    [
      `${num(f('ingest', 'ingest.e2e.webhooks'))} distinct webhooks → alerts, end to end`,
      `${num(f('ingest', 'ingest.e2e.alerts_per_second'))} alerts/s, ${num(f('ingest', 'ingest.e2e.lost'))} lost, ${num(f('ingest', 'ingest.e2e.duplicated'))} duplicated`,
      `≥ ${num(f('ingest', 'ingest.e2e.target_alerts_per_second'))}/s`,
    ],
    [`The same ${num(f('ingest', 'ingest.retry.alerts'))} posted again`, dedupCounts(r), 'exactly'],
    [
      `${num(f('ingest-limits', 'limits.burst.posted'))} webhooks at once to one integration (default bucket)`,
      `${num(f('ingest-limits', 'limits.burst.accepted'))} accepted (${num(f('ingest-limits', 'limits.burst.seconds'), 1)} s), ${raw(f('ingest-limits', 'limits.burst.requests_per_limiter_write'))} requests per limiter write`,
      num(f('ingest-limits', 'limits.burst.target_accepted')),
    ],
    [
      `A sender posting ${num(f('ingest-limits', 'limits.flood.sender_per_minute'))}/min for 3 min (\`TIME_SCALE\` ${raw(f('ingest-limits', 'limits.time_scale'))}: minutes of ${raw(60 / f('ingest-limits', 'limits.time_scale'))} s)`,
      `accepted per minute ${perMinute(r, 'limits.flood.accepted_per_minute')} (${num(f('ingest-limits', 'limits.flood.accepted_total'))} in all); ${num(f('ingest-limits', 'limits.flood.refused_429'))} refused with \`Retry-After\`; ${num(f('ingest-limits', 'limits.flood.limiter_writes_per_request'), 2)} limiter writes per request`,
      '2 000 + 600, 600, 600',
    ],
    ['Console first load (page, script, styles), gzip', `${num(f('console', 'first load, gzip (bytes)') / 1024, 1)} KiB`, '≤ 150 KiB'],
    [
      'Console: alerts list visible, 10 000 alerts, Chromium, empty cache, p50 (max)',
      `${num(f('console', 'alerts visible, 10 000 alerts, cold cache, p50 (ms)'))} ms (max ${num(f('console', 'alerts visible, 10 000 alerts, cold cache, max (ms)'))} ms; ${raw(f('console', '10 000 ÷ 10 alerts, cold p50'))} × an account of 10)`,
      '≤ 1 s',
    ],
    [
      `Router evaluation, ${num(f('routing', 'alerts'))} alerts through a ${num(f('routing', 'rules'))}-rule router (mixed operators, \`$timeBetween\`, Handlebars \`setval\`), p50 (p99)`,
      `${num(f('routing', 'evaluate_p50_us'))} µs (${num(f('routing', 'evaluate_p99_us'))} µs)`,
      `≤ ${num(f('routing', 'target_p50_us'))} µs p50`,
    ],
    [
      `${num(f('routing-e2e', 'routing.e2e.webhooks_per_side'))} webhooks → routed alerts through a router (regex, \`setval\`, assign) ÷ the same straight to a team, alternating rounds`,
      `${raw(f('routing-e2e', 'routing.e2e.ratio_router_to_direct'))} (${num(f('routing-e2e', 'routing.e2e.router_alerts_per_second'))} and ${num(f('routing-e2e', 'routing.e2e.direct_alerts_per_second'))} alerts/s)`,
      `≥ ${raw(f('routing-e2e', 'routing.e2e.target_ratio'))}`,
    ],
    [
      `Time to page: webhook 202 → first notification recorded, ${num(paging('time_to_page.alerts'))} alerts to a team at ${num(paging('time_to_page.posted_per_second'))}/s, p50 / p99`,
      `${num(paging('time_to_page.p50_ms'))} ms / ${num(paging('time_to_page.p99_ms'))} ms (max ${num(paging('time_to_page.max_ms'))} ms); at ${num(paging('time_to_page_50_per_s.posted_per_second'))}/s ${num(paging('time_to_page_50_per_s.p50_ms'))} ms / ${num(paging('time_to_page_50_per_s.p99_ms'))} ms`,
      `p99 ≤ ${num(paging('time_to_page.target_p99_ms') / 1000)} s`,
    ],
    [
      `Time to page on \`npm start\`'s defaults (data on disk, one process), webhooks at ${num(f('sustained', 'sustained.per_s'))}/s for ${num(f('sustained', 'sustained.seconds') / 60)} minutes (${num(f('sustained', 'sustained.alerts'))} alerts), p50 / p99`,
      `${num(f('sustained', 'sustained.time_to_page_p50_ms'))} ms / ${num(f('sustained', 'sustained.time_to_page_p99_ms'))} ms (worst minute's p99 ${num(f('sustained', 'sustained.worst_minute_p99_ms'))} ms; the last page ${raw(f('sustained', 'sustained.pages_done_after_last_accept_s'))} s after the last 202; RSS ${num(f('sustained', 'sustained.rss_mb_start'))} → ${num(f('sustained', 'sustained.rss_mb_end'))} MB)`,
      'p99 ≤ 1 s, no backlog',
    ],
    [
      `The same, a storm of ${num(f('throughput', 'throughput.storm_alerts'))} webhooks at ${num(f('throughput', 'throughput.storm_posted_per_s'))}/s after ${num(f('throughput', 'throughput.creates') + f('throughput', 'throughput.webhooks'))} alerts, p50 / p99`,
      `${num(f('throughput', 'throughput.time_to_page_p50_ms'))} ms / ${num(f('throughput', 'throughput.time_to_page_p99_ms'))} ms (backlog gone ${raw(f('throughput', 'throughput.storm_backlog_gone_after_last_accept_s'))} s after the last 202; ${raw(f('throughput', 'throughput.storm.process_cpu_ms_per_alert'))} ms of CPU an alert on ${r.machine.cpus} cores)`,
      'p99 ≤ 1 s',
    ],
    [
      `Timer accuracy: layer 2 paged after layer 1's timeout, ${num(paging('timers.escalations'))} escalations in flight, p50 / p99 late`,
      `${num(paging('timers.late_p50_ms'))} ms / ${num(paging('timers.late_p99_ms'))} ms (max ${num(paging('timers.late_max_ms'))} ms, ${earliest(r)})`,
      `p99 ≤ ${num(paging('timers.target_p99_late_ms') / 1000)} s`,
    ],
    [
      `Storm: ${num(paging('storm.alerts'))} alerts to one team, posted in ${raw(paging('storm.posted_in_s'))} s, SMS window ${num(paging('storm.sms_window_s'))} s`,
      `${num(paging('storm.pages_recorded'))} pages recorded, ${num(paging('storm.pages_recorded_per_second'))}/s (all within ${raw(paging('storm.all_recorded_after_s'))} s); SMS: ${num(paging('storm.sms_sent'))} sent, ${num(paging('storm.sms_bundled'))} bundled into them`,
      'one SMS per window',
    ],
    ...failoverRows(r),
    ...slackRows(r),
    lifeRow(r),
  ];
}

/** [label, figure name in the results, or [ascending, descending] figure names] */
type SideBySide = [label: string, name: string | [string, string]];

const ALERT_LISTS: SideBySide[] = [
  ['plain', 'plain'],
  ['`status=open`', 'status'],
  ['`status=open&urgency=low` (v4)', 'status_urgency'],
  ['the same on the earlier interface (`/alert`)', 'earlier_status_urgency'],
  ['`destination_team_ids=<team>`', 'team'],
  ['`destination_team_ids=<team>&status=open`', 'team_status'],
  ["`GET /teams/:id/alerts` (the team's link partition and its seven `dteam#<status>` ones, merged)", 'team_alerts'],
  ['`GET /teams/:id/alerts?status=open` (`dteam#<team>#open` and the assigned-team links, merged)', 'team_alerts_status'],
  ['`created_at` between (1 % of alerts; the total from the created_at buckets + the two edge hours)', 'created_between'],
  ['`created_at` between + `status`', 'created_between_status'],
  ['`sort=created_at` asc / desc', ['sort_created_asc', 'sort_created_desc']],
  ['`sort=updated_at` asc / desc', ['sort_updated_asc', 'sort_updated_desc']],
  ['`sort=tiny_id` asc / desc', ['sort_tiny_asc', 'sort_tiny_desc']],
  ["`q=kestrel` (1 % of titles; the PagerTree CLI's `alerts list --search kestrel`)", 'q_word'],
  ['`q=kes`', 'q_prefix'],
  ["`q=kestrel web` (`web` in every title, checked on the `kes` items' word lists)", 'q_two_words'],
];

const COLLECTIONS: SideBySide[] = [
  ['all logs (`/log`)', 'logs_all'],
  ["an integration's logs (`/log?owner_id=int_…`)", 'logs_integration_owner'],
  ['the same, `offset=50`', 'logs_integration_offset'],
  ["an integration's request log, newest first", 'integration_request_log'],
  ["an alert's timeline (`/incident/:id/logs`)", 'alert_timeline'],
  ['the same as `/log?owner_id=alt_…`', 'alert_timeline_by_owner'],
  ['notifications', 'notifications_plain'],
  ["a person's notifications (`account_user_id=`)", 'notifications_by_account_user'],
  ['the same, oldest first, `offset=20`', 'notifications_by_account_user_asc'],
  ["an alert's notifications (`alert_id=`)", 'notifications_by_alert'],
  ['earlier `/notification`, by person', 'earlier_notifications_by_account_user'],
  ['earlier `/notification`, by alert (`source_id=alt_…`)', 'earlier_notifications_by_alert'],
];

function sideBySideRows(results: BenchResults, bench: string, rows: SideBySide[]): string[] {
  const cell = (names: string[], suffix: string, unit: string) =>
    `${names.map((name) => raw(figure(results, bench, `${name}.${suffix}`))).join(' / ')}${unit}`;
  return rows.map(([label, name]) => {
    const names = typeof name === 'string' ? [name] : name;
    return `| ${label} | ${cell(names, 'p50_100k_ms', ' ms')} | ${cell(names, 'p50_100_ms', ' ms')} | ${cell(names, 'ratio', '')} |`;
  });
}

/** One life's usage as `npm run bench alert-life` (DynamoDB units) and `npm run bench cost` (the rest) measured it. */
export function lifeUsage(r: BenchResults): LifeUsage {
  const invocations = JSON.parse(text(r, 'cost', 'cost.invocations')) as LifeUsage['invocations'];
  return {
    writeUnits: figure(r, 'alert-life', 'alert_life.write_units'),
    readUnits: figure(r, 'alert-life', 'alert_life.read_units'),
    apiRequests: figure(r, 'cost', 'cost.api_requests'),
    sqsRequests: figure(r, 'cost', 'cost.sqs_requests'),
    invocations,
    architecture: text(r, 'cost', 'cost.architecture') as Architecture,
  };
}

export function idleUsage(r: BenchResults): IdleUsage {
  const f = (name: string) => figure(r, 'cost', `cost.${name}`);
  return {
    alarms: f('alarms'),
    dashboards: f('dashboards'),
    kmsKeys: f('kms_keys'),
    secrets: f('secrets'),
    scheduledRunsPerMonth: f('sweeper_runs_per_month'),
    scheduled: { meanMs: f('sweeper_idle_ms'), memoryMb: f('sweeper_memory_mb') },
    architecture: text(r, 'cost', 'cost.architecture') as Architecture,
  };
}

function lifeRow(r: BenchResults): Row {
  const life = lifeUsage(r);
  const count = Object.values(life.invocations).reduce((sum, i) => sum + i.count, 0);
  return [
    "One alert's life (create → page 2 layers → acknowledge → resolve), e-mail pages",
    `${num(life.writeUnits)} write units (${num(figure(r, 'alert-life', 'alert_life.write_units_table'))} table + ` +
      `${num(figure(r, 'alert-life', 'alert_life.write_units_indexes'))} index), ${raw(life.readUnits)} read units; ` +
      `${raw(life.apiRequests)} API requests, ${raw(figure(r, 'cost', 'cost.queue_messages'))} queue messages ` +
      `(${raw(life.sqsRequests)} SQS requests), ${raw(count)} invocations`,
    '≤ 60 write, ≤ 20 read units',
  ];
}

/** A price per request or unit as the price list writes it: per million. */
const perMillion = (price: number) => `$${Math.round(price * 1e9) / 1e3} per million`;

const usd = (value: number) => (value < 0.01 && value > 0 ? '< $0.01' : `$${num(value, 2)}`);

/** The cost table: a month of 10 000 and of 1 000 000 alert lives, and what idles, priced apart. */
export function costTable(r: BenchResults, prices: Prices = PRICES): string {
  const life = lifeUsage(r);
  const idle = idleUsage(r);
  const [small, large] = [monthlyCost(life, 10_000, prices), monthlyCost(life, 1_000_000, prices)];
  const still = idleCost(idle, prices);
  const gb = (name: string) => `${name} ${num(life.invocations[name].memoryMb)} MB × ${raw(life.invocations[name].meanMs)} ms`;
  const rows: string[][] = [
    [
      `DynamoDB writes (${raw(life.writeUnits)} units a life × ${perMillion(prices.dynamodbWriteUnit)})`,
      usd(small.dynamodbWrites),
      usd(large.dynamodbWrites),
    ],
    [
      `DynamoDB reads (${raw(life.readUnits)} units × ${perMillion(prices.dynamodbReadUnit)})`,
      usd(small.dynamodbReads),
      usd(large.dynamodbReads),
    ],
    [
      `Lambda requests (${raw(Object.values(life.invocations).reduce((sum, i) => sum + i.count, 0))} invocations × ${perMillion(prices.lambdaRequest)})`,
      usd(small.lambdaRequests),
      usd(large.lambdaRequests),
    ],
    [
      `Lambda duration, ${life.architecture} ($${prices.lambdaGbSecond[life.architecture]} per GB-second; per invocation as measured: ` +
        `${Object.keys(life.invocations).map(gb).join(', ')})`,
      usd(small.lambdaDuration),
      usd(large.lambdaDuration),
    ],
    [
      `SQS (${raw(life.sqsRequests)} requests: sends, and a receive and a delete per message × ${perMillion(prices.sqsRequest)})`,
      usd(small.sqs),
      usd(large.sqs),
    ],
    [`HTTP API (${raw(life.apiRequests)} requests × ${perMillion(prices.httpApiRequest)})`, usd(small.httpApi), usd(large.httpApi)],
    ['**Alerts**', `**${usd(small.total)}**`, `**${usd(large.total)}**`],
    [`CloudWatch alarms (${num(idle.alarms)} × $${num(prices.alarmMonth, 2)})`, usd(still.alarms), usd(still.alarms)],
    [`CloudWatch dashboard (${num(idle.dashboards)} × $${num(prices.dashboardMonth)})`, usd(still.dashboards), usd(still.dashboards)],
    [`KMS keys (${num(idle.kmsKeys)} × $${num(prices.kmsKeyMonth)})`, usd(still.kmsKeys), usd(still.kmsKeys)],
    [`Secrets Manager secrets (${num(idle.secrets)} × $${num(prices.secretMonth, 2)})`, usd(still.secrets), usd(still.secrets)],
    [
      `The sweeper, every minute whatever the alerts (${num(idle.scheduledRunsPerMonth)} runs × ${num(idle.scheduled.memoryMb)} MB × ${raw(idle.scheduled.meanMs)} ms idle)`,
      usd(still.scheduled),
      usd(still.scheduled),
    ],
    ['**Idle**', `**${usd(still.total)}**`, `**${usd(still.total)}**`],
    ['**Month**', `**${usd(small.total + still.total)}**`, `**${usd(large.total + still.total)}**`],
  ];
  return table(
    ['A month on AWS', '10 000 alerts', '1 000 000 alerts'],
    rows.map((row) => `| ${row.join(' | ')} |`),
  );
}

const table = (header: string[], rows: string[]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows].join('\n');

/** The markdown between the markers (markers excluded). */
export function renderBenchFigures(results: BenchResults): string {
  const { machine } = results;
  const lists = (name: string) => figure(results, 'lists', name);
  const collections = (name: string) => figure(results, 'collections', name);
  return [
    `Figures of \`bench/results/latest.json\` (its last run ${results.when.slice(0, 10)}; ${machine.cpus} cores, ` +
      `${machine.model ?? 'unknown CPU'}, Node ${machine.node}):`,
    '',
    table(
      ['Figure', 'Result', 'Target'],
      mainRows(results).map((row) => `| ${row.join(' | ')} |`),
    ),
    '',
    'Alert lists at 100 000 alerts (`npm run bench lists`: both accounts seeded through the store, alerts spread over a ' +
      'year, `kestrel` in 1 % of titles; p50 of `limit=10` pages, side by side, every row from one run):',
    '',
    table(
      ['Shape', 'p50 100 000', 'p50 100', 'Ratio'],
      [
        ...sideBySideRows(results, 'lists', ALERT_LISTS),
        `| \`sort=title\` (outside the indexes): its 422 | ${raw(lists('unindexed_422_100k_p50_ms'))} ms p50, ${raw(lists('unindexed_422_100k_max_ms'))} ms max | – | – |`,
      ],
    ),
    '',
    'Logs and notifications at 100 000 under one owner (`npm run bench collections`: 100 000 request logs of one ' +
      'integration, 1 000 alerts with 5 timeline entries each, 100 000 notifications of one person over those alerts, ' +
      'against 100 of each; p50 of `limit=10` pages, side by side in one run; each total from a counter per owner, where ' +
      `a \`Select: COUNT\` of the owner's partition takes ${num(collections('before_count_integration_logs_100k_ms'))} ms ` +
      `(the integration's logs) and ${num(collections('before_count_account_user_notifications_100k_ms'))} ms (the person's notifications)):`,
    '',
    table(['Shape', 'p50 100 000', 'p50 100', 'Ratio'], sideBySideRows(results, 'collections', COLLECTIONS)),
    '',
    `What a month of alerts costs (\`npm run bench alert-life cost\`: the units, requests, messages and durations of one ` +
      `alert's life as measured above, times the month's alerts, each invocation as long as the local runtime took on ` +
      `the benchmark's machine, which its emulator and load make slower than Lambda; what idles counted in the ` +
      `synthesized stack; on-demand list prices for ${PRICES.region} as checked in ${PRICES.checked}, no free tier, SES ` +
      `and SMS left out):`,
    '',
    costTable(results),
  ].join('\n');
}

/** `readme` with the text between the markers replaced by the figures of `results`. */
export function withBenchFigures(readme: string, results: BenchResults): string {
  const start = readme.indexOf(BENCH_START);
  const end = readme.indexOf(BENCH_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${BENCH_START} … ${BENCH_END} block`);
  return `${readme.slice(0, start + BENCH_START.length)}\n${renderBenchFigures(results)}\n${readme.slice(end)}`;
}

/** Rewrites the README's block from the results file; true when it changed. */
export function writeReadmeFigures(readmePath: string, resultsPath: string): boolean {
  const readme = readFileSync(readmePath, 'utf8');
  const updated = withBenchFigures(readme, JSON.parse(readFileSync(resultsPath, 'utf8')) as BenchResults);
  if (updated === readme) return false;
  writeFileSync(readmePath, updated);
  return true;
}
