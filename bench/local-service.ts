// The local runtime as `npm start` runs it (data on disk, the sweeper every 10 s), with a team whose
// one member is on call and a webhook integration paging that team: what the load benchmarks
// (memory, throughput) drive. Also how they wait for it to come to rest.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startRuntime, type Runtime } from '../infra/local/runtime';
import { groupCommitsIdle } from '../lib/group-commit';
import { envNumber, KeepAliveClient } from './support';

export interface LocalService {
  runtime: Runtime;
  client: KeepAliveClient;
  sqs: SQSClient;
  apiKey: string;
  accountId: string;
  teamId: string;
  webhookPath: string;
  stop(): Promise<void>;
}

export async function json<T>(client: KeepAliveClient, method: string, url: string, body?: unknown): Promise<T> {
  const res = await client.request(method, url, body === undefined ? undefined : JSON.stringify(body));
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as T;
}

/**
 * Starts the runtime on disk (or in memory, to tell LevelDB's share from the rest) and sets up the
 * team, its on-call person and the webhook integration. OUTBOX `log` sends every page through the
 * outbox provider as `npm start`'s `console` does, without printing thousands of them.
 */
export interface LocalServiceOptions {
  inMemory?: boolean;
  outbox?: string;
  closeEmulatorIterators?: boolean;
  tunedEmulatorStore?: boolean;
  dynamoTransport?: 'port' | 'http';
  unhurriedLingerMs?: number;
}

export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const inMemory = options.inMemory ?? false;
  const dataDir = inMemory ? ':memory:' : mkdtempSync(path.join(os.tmpdir(), 'oncall-bench-'));
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  const runtime = await startRuntime({
    port: 0,
    dataDir,
    closeEmulatorIterators: options.closeEmulatorIterators,
    tunedEmulatorStore: options.tunedEmulatorStore,
    dynamoTransport: options.dynamoTransport,
    // BENCH_LINGER: the workers' counts' linger (infra/local/runtime.ts), 0 for a side by side without it.
    unhurriedLingerMs: options.unhurriedLingerMs ?? envNumber('BENCH_LINGER'),
    scheduleIntervalMs: 10_000,
    env: { OUTBOX: options.outbox ?? 'log', LOG_LEVEL: 'error' },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  const client = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  const users = await json<{ data: { id: string; account_id: string }[] }>(client, 'GET', '/api/v4/account_users');
  const me = users.data[0];
  const team = await json<{ id: string; schedule_id: string }>(client, 'POST', '/api/v4/teams', {
    name: 'Bench load',
    member_account_user_ids: [me.id],
    admin_account_user_ids: [me.id],
  });
  await json(client, 'POST', '/api/v4/events', {
    schedule_ids: [team.schedule_id],
    account_user_ids: [me.id],
    layer: 1,
    start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
    end_datetime: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    time_zone: 'UTC',
  });
  const integration = await json<{ prefix_id: string }>(client, 'POST', '/api/v4/integrations', {
    name: 'bench',
    urgency: 'high',
    integration_type_id: 'webhook',
    team_ids: [team.id],
    option_rate_limit_per_minute: 10_000_000,
    option_rate_limit_burst: 1_000_000,
  });
  const sqs = new SQSClient({ endpoint: runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  return {
    runtime,
    client,
    sqs,
    apiKey,
    accountId: me.account_id,
    teamId: team.id,
    webhookPath: `/integration/${integration.prefix_id}`,
    async stop() {
      client.close();
      sqs.destroy();
      await runtime.stop();
      if (!inMemory) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every queue empty, every poller idle and every group commit answered, with no batch handled while looking. */
export async function atRest(service: LocalService): Promise<boolean> {
  const batches = service.runtime.pollers.reduce((sum, p) => sum + p.batches, 0);
  for (const { url } of Object.values(service.runtime.queues)) {
    const { Attributes = {} } = await service.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    if (Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) > 0)
      return false;
  }
  const idle = service.runtime.pollers.every((p) => p.busy === 0) && groupCommitsIdle();
  return idle && batches === service.runtime.pollers.reduce((sum, p) => sum + p.batches, 0);
}

/** Polls `check` until it holds twice in a row; fails after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 30 * 60_000, pollMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let passes = 0;
  while (passes < 2) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    passes = (await check()) ? passes + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
