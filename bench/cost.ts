// What one alert's life uses besides DynamoDB units (those are `npm run bench alert-life`'s), for the
// README's cost table (bench/cost-model.ts): the same life as bench/alert-life.ts, unmetered, counting
// its API requests (each one Lambda invocation), its queue sends and the batches the workers took
// (each a receive, a delete and an invocation), and timing every invocation; then what the
// synthesized stack keeps running whatever the alerts (alarms, dashboards, KMS keys, secrets, the
// scheduled sweeper, timed idle here).
import { randomBytes } from 'node:crypto';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { FUNCTIONS, QUEUES, type FunctionName } from '../infra/functions';
import { compileRoutes, matchRoute } from '../infra/local/api-gateway';
import { invocation, invokeWorker, toRecord, type SqsHandler } from '../infra/local/sqs-poller';
import { OncallStack } from '../infra/stack';
import { ROUTES } from '../lib/api/route-table';
import { sqs } from '../lib/queues/client';
import { db } from '../lib/store/client';
import { ApiClient } from '../test/support/api-client';
import { settle } from '../test/support/quiescence';
import { lifeTeam, liveOnce, startLifeService } from './alert-life';
import { runsPerMonth, type Architecture } from './cost-model';
import { round, runWhenMain } from './support';

interface Timed {
  count: number;
  totalMs: number;
}

/** Counts the API requests `client` makes and times each, by the function that answers it. */
function countedClient(client: ApiClient, into: Map<string, Timed>): ApiClient {
  const routes = compileRoutes(ROUTES);
  const counted = new ApiClient(client.baseUrl, client.headers);
  counted.request = async (method, path, body, headers) => {
    const fn = matchRoute(routes, method, path.split('?')[0])?.route.fn ?? 'notFound';
    const started = performance.now();
    const result = await client.request(method, path, body, headers);
    const timed = into.get(fn) ?? { count: 0, totalMs: 0 };
    into.set(fn, { count: timed.count + 1, totalMs: timed.totalMs + performance.now() - started });
    return result;
  };
  return counted;
}

/**
 * Watches the service's own AWS calls: queue sends (requests and messages), and for every worker
 * invocation (one batch: its AsyncLocalStorage store) the span from its first call's start to its
 * last call's end, a lower bound of the invocation's duration that leaves out the local poller.
 */
function watchCalls() {
  /** Bodies sent, by queue URL: each queue's message count is its list's length. */
  const sends = { requests: 0, messages: 0, bodies: new Map<string, string[]>() };
  const spans = new Map<object, { fn: string; start: number; end: number }>();
  const name = 'costWatch';
  const timing =
    <A, R>(next: (args: A) => Promise<R>) =>
    async (args: A): Promise<R> => {
      const store = invocation.getStore();
      const start = performance.now();
      try {
        return await next(args);
      } finally {
        if (store) {
          const span = spans.get(store) ?? { fn: store.functionName, start, end: 0 };
          span.end = Math.max(span.end, performance.now());
          spans.set(store, span);
        }
      }
    };
  const queue = sqs();
  const table = db();
  queue.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { QueueUrl?: string; Entries?: { MessageBody?: string }[]; MessageBody?: string };
      const messages =
        context.commandName === 'SendMessageBatchCommand'
          ? (input.Entries?.length ?? 0)
          : context.commandName === 'SendMessageCommand'
            ? 1
            : 0;
      if (messages > 0) {
        sends.requests += 1;
        sends.messages += messages;
        const bodies = sends.bodies.get(input.QueueUrl ?? '') ?? [];
        bodies.push(...(input.Entries ? input.Entries.map((entry) => entry.MessageBody ?? '') : [input.MessageBody ?? '']));
        sends.bodies.set(input.QueueUrl ?? '', bodies);
      }
      return timing(next)(args);
    },
    { step: 'initialize', name },
  );
  table.middlewareStack.add((next) => timing(next), { step: 'initialize', name });
  return {
    sends,
    spans,
    stop() {
      queue.middlewareStack.remove(name);
      table.middlewareStack.remove(name);
    },
  };
}

/** What the stack keeps running whatever the alerts, counted in its template (bundling skipped). */
export function idleResources(): { alarms: number; dashboards: number; kmsKeys: number; secrets: number; architecture: Architecture } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const resources = Object.values(Template.fromStack(new OncallStack(app, 'Cost')).toJSON().Resources as Record<string, { Type: string }>);
  const count = (type: string) => resources.filter((r) => r.Type === type).length;
  const sweeper = resources.find(
    (r) => r.Type === 'AWS::Lambda::Function' && /Sweeper/.test(JSON.stringify((r as { Properties?: unknown }).Properties ?? {})),
  ) as { Properties?: { Architectures?: string[] } } | undefined;
  const architecture = (sweeper?.Properties?.Architectures?.[0] ?? 'x86_64') as Architecture;
  return {
    alarms: count('AWS::CloudWatch::Alarm'),
    dashboards: count('AWS::CloudWatch::Dashboard'),
    kmsKeys: count('AWS::KMS::Key'),
    secrets: count('AWS::SecretsManager::Secret'),
    architecture,
  };
}

/** Runs `fn`'s handler on each body, one message a batch, as Lambda would hand it over: the time each took. */
async function timeHandling(fn: FunctionName, bodies: string[], queueName: string): Promise<Timed | undefined> {
  if (bodies.length === 0) return undefined;
  const { handler } = (await import(`../${FUNCTIONS[fn].entry}`)) as { handler: SqsHandler };
  const timed: Timed = { count: 0, totalMs: 0 };
  for (const [i, body] of bodies.entries()) {
    const messageId = `cost-${i}`;
    const record = toRecord(
      { MessageId: messageId, ReceiptHandle: messageId, Body: body },
      `arn:aws:sqs:us-east-1:000000000000:${queueName}`,
    );
    const started = performance.now();
    const answer = await invokeWorker(handler, [record], fn);
    timed.totalMs += performance.now() - started;
    timed.count += 1;
    if (answer && (answer.batchItemFailures ?? []).length > 0) throw new Error(`${fn} failed a message the lives left: ${body}`);
  }
  return timed;
}

export async function benchCost(): Promise<Record<string, number | string>> {
  const lives = Number(process.env.BENCH_COST_LIVES ?? 3);
  const { service, admin, stop } = await startLifeService('cost');
  const { runtime } = service;
  try {
    const teamId = await lifeTeam(admin);
    await liveOnce(service, admin, teamId, `Warm-up ${randomBytes(3).toString('hex')}`);

    const api = new Map<string, Timed>();
    const watch = watchCalls();
    try {
      const counted = countedClient(admin, api);
      for (let i = 0; i < lives; i++) await liveOnce(service, counted, teamId, `Cost ${i} ${randomBytes(3).toString('hex')}`);
    } finally {
      watch.stop();
    }
    const invocations: Record<string, { count: number; meanMs: number; memoryMb: number }> = {};
    for (const [fn, timed] of api) {
      invocations[fn] = {
        count: timed.count / lives,
        meanMs: timed.totalMs / timed.count,
        memoryMb: FUNCTIONS[fn as FunctionName].memoryMb,
      };
    }
    const { sends } = watch;
    const workerSpans = new Map<string, Timed>();
    for (const span of watch.spans.values()) {
      const timed = workerSpans.get(span.fn) ?? { count: 0, totalMs: 0 };
      workerSpans.set(span.fn, { count: timed.count + 1, totalMs: timed.totalMs + span.end - span.start });
    }
    // Deployed, every message is received, handled and deleted: one batch each at this rate, also
    // the timers the service's clock made moot here before their delay ran out (a layer's timeout
    // passed by the sweeper). Each batch is one invocation, one receive and one delete.
    let workerInvocations = 0;
    for (const queue of Object.values(QUEUES)) {
      const bodies = sends.bodies.get(runtime.queues[queue.name].url) ?? [];
      const messages = bodies.length;
      if (messages === 0) continue;
      // A consumer none of whose messages came within the lives (timers: layer 2's timeout, passed by
      // the sweeper with the service's clock, comes back once its SQS delay is over and finds nothing
      // to do) is timed handling them now, one message a batch as it would be deployed.
      const timed = workerSpans.get(queue.consumer) ?? (await timeHandling(queue.consumer, bodies, queue.name));
      invocations[queue.consumer] = {
        count: messages / lives,
        meanMs: timed ? timed.totalMs / timed.count : 0,
        memoryMb: FUNCTIONS[queue.consumer].memoryMb,
      };
      workerInvocations += messages;
    }

    // The sweeper runs every minute whatever the alerts: an idle run, timed.
    await settle(service);
    const sweeps: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await runtime.runScheduled('sweeper');
      sweeps.push(performance.now() - started);
    }
    const idle = idleResources();
    const perLife = (n: number) => round(n / lives, 2);
    return {
      'cost.lives': lives,
      'cost.api_requests': perLife([...api.values()].reduce((sum, t) => sum + t.count, 0)),
      'cost.queue_send_requests': perLife(watch.sends.requests),
      'cost.queue_messages': perLife(watch.sends.messages),
      'cost.worker_invocations': perLife(workerInvocations),
      'cost.sqs_requests': perLife(watch.sends.requests + 2 * workerInvocations),
      'cost.invocations': JSON.stringify(
        Object.fromEntries(
          Object.entries(invocations).map(([fn, r]) => [
            fn,
            { count: round(r.count, 2), meanMs: round(r.meanMs, 1), memoryMb: r.memoryMb },
          ]),
        ),
      ),
      'cost.architecture': idle.architecture,
      'cost.alarms': idle.alarms,
      'cost.dashboards': idle.dashboards,
      'cost.kms_keys': idle.kmsKeys,
      'cost.secrets': idle.secrets,
      'cost.sweeper_runs_per_month': runsPerMonth(FUNCTIONS.sweeper.schedule!),
      'cost.sweeper_idle_ms': round(sweeps.sort((a, b) => a - b)[2], 1),
      'cost.sweeper_memory_mb': FUNCTIONS.sweeper.memoryMb,
    };
  } finally {
    await stop();
  }
}

runWhenMain(import.meta.url, benchCost);
