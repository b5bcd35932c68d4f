// Benchmark of routing end to end on the local runtime (one process: API, emulators, workers):
// webhooks into an integration whose destination is a router (three rules: a regex on the request,
// a Handlebars setval, an assign to a team), against the same load into an integration pointing
// straight at that team. Rounds alternate between the two (the machine is shared and noisy), each
// timed from its first POST until the ingest and routing queues are idle; every alert is then
// checked to be routed and assigned to the team. Figure: routed alerts/s, router ÷ direct.
// Target: ratio ≥ 0.8.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startRuntime, type Runtime } from '../infra/local/runtime';
import type { AlertRecord } from '../lib/alerts/records';
import { typeOf } from '../lib/entities';
import { partitionOf, queryAll } from '../lib/store/items';

const CONCURRENCY = 32;
const PER_SIDE = 5_000;
const ROUNDS = 5;

const RULES = `rules:
  - match:
      alert.urgency: critical
    actions:
      - type: ignore
  - match:
      log.data.description:
        $regex: "^load"
    actions:
      - type: setval
        map:
          title: "[bench] {{alert.title}}"
      - type: assign
        receiver: TEAM
  - match:
      always: true
    actions:
      - type: assign
        receiver: TEAM
`;

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function postAll(url: URL, ids: string[]): Promise<number> {
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const body = JSON.stringify({ event_type: 'create', id, title: `Bench ${id}`, description: 'load test', urgency: 'low' });
        if ((await post(url, body)) !== 202) refused++;
      }
    }),
  );
  return refused;
}

async function queuesIdle(runtime: Runtime, sqs: SQSClient): Promise<boolean> {
  for (const queue of [runtime.queues.ingest.url, runtime.queues.routing.url]) {
    const out = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queue,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    const a = out.Attributes ?? {};
    if (Number(a.ApproximateNumberOfMessages ?? 0) + Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) > 0) return false;
  }
  return true;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, pollMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error('timed out');
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

export async function benchRoutingEndToEnd(): Promise<Record<string, number | string>> {
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-bench-${randomBytes(4).toString('hex')}`,
    pollerConcurrency: 4,
    scheduleIntervalMs: 3_600_000,
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  const sqs = new SQSClient({
    endpoint: runtime.emulators.sqsEndpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    useQueueUrlAsEndpoint: false,
  });
  try {
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const api = async (path: string, body: unknown) => {
      const res = await fetch(`${runtime.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; prefix_id: string; account_id: string };
    };
    const users = (await (await fetch(`${runtime.url}/api/v4/account_users`, { headers })).json()) as { data: Array<{ id: string }> };
    const team = await api('/api/v4/teams', {
      name: 'Bench',
      member_account_user_ids: [users.data[0].id],
      admin_account_user_ids: [users.data[0].id],
    });
    const router = await api('/api/v4/routers', {
      name: 'Bench',
      rules: RULES.replaceAll('TEAM', team.prefix_id),
      default_receiver_team_id: team.id,
    });
    const integration = async (destination: Record<string, unknown>) => {
      const created = await api('/api/v4/integrations', {
        name: 'bench',
        urgency: 'low',
        integration_type_id: 'webhook',
        option_rate_limit_per_minute: 10_000_000,
        ...destination,
      });
      return new URL(`${runtime.url}/integration/${created.prefix_id}`);
    };
    const sides = { direct: await integration({ team_ids: [team.id] }), router: await integration({ router_ids: [router.id] }) };
    const seconds = { direct: 0, router: 0 };
    let refused = 0;
    const perRound = PER_SIDE / ROUNDS;
    // A warm-up round each, not counted: module loading and caches.
    for (const side of ['direct', 'router'] as const) {
      await postAll(
        sides[side],
        Array.from({ length: 200 }, (_, i) => `warm-${side}-${i}`),
      );
      await until(() => queuesIdle(runtime, sqs), 600_000);
    }
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (['direct', 'router'] as const) : (['router', 'direct'] as const);
      for (const side of order) {
        const ids = Array.from({ length: perRound }, (_, i) => `${side}-${r}-${i}`);
        const started = performance.now();
        refused += await postAll(sides[side], ids);
        await until(() => queuesIdle(runtime, sqs), 600_000);
        seconds[side] += (performance.now() - started) / 1000;
      }
    }
    const alerts: AlertRecord[] = [];
    for await (const item of queryAll(partitionOf(router.account_id, typeOf('alert')))) alerts.push(item as unknown as AlertRecord);
    const counted = { direct: 0, router: 0, unrouted: 0, wrong: 0 };
    for (const alert of alerts) {
      const side = alert.thirdparty_id?.split('-')[0];
      if (side !== 'direct' && side !== 'router') continue;
      counted[side] += 1;
      if (!alert.routed_at) counted.unrouted += 1;
      else if (alert.assigned_team_id !== team.id || (side === 'router' && !alert.title.startsWith('[bench] '))) counted.wrong += 1;
    }
    const perSecond = { direct: PER_SIDE / seconds.direct, router: PER_SIDE / seconds.router };
    return {
      'routing.e2e.webhooks_per_side': PER_SIDE,
      'routing.e2e.rounds': ROUNDS,
      'routing.e2e.refused': refused,
      'routing.e2e.direct_alerts_per_second': round(perSecond.direct),
      'routing.e2e.router_alerts_per_second': round(perSecond.router),
      'routing.e2e.ratio_router_to_direct': round(perSecond.router / perSecond.direct, 2),
      'routing.e2e.target_ratio': 0.8,
      'routing.e2e.alerts_direct': counted.direct,
      'routing.e2e.alerts_router': counted.router,
      'routing.e2e.unrouted': counted.unrouted,
      'routing.e2e.misrouted': counted.wrong,
    };
  } finally {
    sqs.destroy();
    await runtime.stop();
  }
}
