// The whole service in one process: embedded emulators (or AWS_ENDPOINT_URL), the table and queues
// created from the stack's definitions, the first account, the API on HOST:PORT, a poller per queue
// and a timer per scheduled function. `npm start` and the integration tests both run this.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context } from 'aws-lambda';
import { bootstrap, validateBootstrap, type BootstrapOptions } from '../../lib/accounts/bootstrap';
import type { CreatedAccount } from '../../lib/accounts/create-account';
import { config } from '../../lib/config';
import { environmentChanged, replaceDependencies, type Dependencies } from '../../lib/dependencies';
import { hurryUnhurried, lateWrites, setUnhurriedLinger } from '../../lib/group-commit';
import { logger } from '../../lib/log';
import { EMBEDDED_EMULATORS_VARIABLE, resolveStackOnce, runInBackground, serviceClientConfig, trimServiceClient } from '../../lib/sdk';
import { FUNCTIONS, QUEUES, type FunctionName } from '../functions';
import { startApi, type LocalApi } from './api-gateway';
import { consoleSite } from './console-site';
import { startEmulators, type Emulators } from './emulators';
import { ensureQueues, ensureTable, type QueueUrls } from './provision';
import { startPoller, type Poller, type SqsHandler } from './sqs-poller';

export interface RuntimeOptions {
  host?: string;
  port?: number;
  /** Folder for the embedded DynamoDB, or ':memory:'. */
  dataDir?: string;
  /** An AWS-compatible endpoint (LocalStack, moto): no emulator is started. */
  endpoint?: string;
  tableName?: string;
  queuePrefix?: string;
  bootstrap?: BootstrapOptions;
  /** Shorter visibility timeout (tests of redelivery); default: the stack's. */
  visibilityTimeoutSeconds?: number;
  pollerConcurrency?: number;
  /** How often scheduled functions run locally (default: every 10 s). */
  scheduleIntervalMs?: number;
  /** Extra environment for the functions (e.g. SIGNUP_ENABLED). */
  env?: Record<string, string>;
  /** A built web console (web/build.ts) to serve at `/`; without it only the API is served. */
  consoleDir?: string;
  /** Pieces that replace the production ones while the runtime runs (tests: their clock and outbox). */
  dependencies?: Partial<Dependencies>;
  /** false: the embedded DynamoDB leaves its iterators open as dynalite does (the memory benchmark's baseline); default true. */
  closeEmulatorIterators?: boolean;
  /** false: the embedded DynamoDB reads every table description, writes every entry alone and reads through the thread pool, as dynalite does (the emulator-store benchmark's side by side); default true. */
  tunedEmulatorStore?: boolean;
  /** How the service's own clients reach the embedded DynamoDB: 'port' (default: a MessagePort to its thread) or 'http' (loopback, as every other client; the benchmarks' side by side). */
  dynamoTransport?: 'port' | 'http';
  /** How long the queue workers' summed counts wait for other work's (lib/group-commit.ts setUnhurriedLinger); 0 writes each at once, as deployed. */
  unhurriedLingerMs?: number;
}

/**
 * The queue workers share this process, and each queue message's work writes its counts summed at
 * its end (lib/store/deferred-counts.ts), after its page: they wait this long for the counts of the
 * messages handled meanwhile. At a steady 50 webhooks a second that is ~5 alerts' counts in one
 * UpdateItem per counter item instead of one each (docs/ARCHITECTURE.md, "Unhurried counts").
 */
export const LOCAL_UNHURRIED_LINGER_MS = 100;

export interface Runtime {
  url: string;
  tableName: string;
  queues: QueueUrls;
  emulators: Emulators;
  created: CreatedAccount | null;
  pollers: Poller[];
  /** Runs a scheduled function now (tests); resolves with what it returned. */
  runScheduled(name: FunctionName): Promise<unknown>;
  /** The start-up re-drive of pending inbound requests (settles when it is done; none for a new table). */
  redrive: Promise<unknown>;
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const entryExists = (name: FunctionName) => existsSync(`${root}${FUNCTIONS[name].entry}`);
const importEntry = async <T>(name: FunctionName): Promise<T> =>
  (await import(new URL(`../../${FUNCTIONS[name].entry}`, import.meta.url).href)) as T;

/** The CONSOLE_URL this module set for an earlier runtime of the process (tests start several). */
let ownConsoleUrl: string | undefined;

/**
 * The environment variables a runtime sets, put back as they were when it stops: tests start many
 * runtimes in one process, one after another, and one's settings (TIME_SCALE, a read budget, a
 * provider) must not reach the next. A variable changed since by someone else is left to them.
 */
function environmentScope() {
  const before = new Map<string, string | undefined>();
  const ours = new Map<string, string | undefined>();
  const set = (name: string, value: string | undefined) => {
    if (!before.has(name)) before.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    ours.set(name, value);
  };
  return {
    set,
    setDefault(name: string, value: string) {
      if (process.env[name] === undefined) set(name, value);
    },
    restore() {
      for (const [name, previous] of before) {
        if (process.env[name] !== ours.get(name)) continue;
        if (previous === undefined) delete process.env[name];
        else process.env[name] = previous;
      }
      environmentChanged();
    },
  };
}

/**
 * `run`, unless its previous call has not ended yet: then nothing (false). The local runtime's
 * timers run the scheduled functions through it: on a busy machine a sweep can outlast the
 * interval, and sweeps started on top of it each read the same due work again and try to claim it,
 * every one adding its calls to the background lane's queue in front of the work itself. Deployed,
 * each scheduled invocation is its own Lambda, a minute apart.
 */
export function oneAtATime(run: () => Promise<unknown>): () => Promise<boolean> {
  let running = false;
  return async () => {
    if (running) return false;
    running = true;
    try {
      await run();
      return true;
    } finally {
      running = false;
    }
  };
}

export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  if (options.bootstrap) validateBootstrap(options.bootstrap);
  const startedAt = Date.now();
  const endpoint = options.endpoint ?? process.env.AWS_ENDPOINT_URL;
  const emulators = await startEmulators({
    dataDir: options.dataDir ?? '.data',
    endpoint,
    closeIterators: options.closeEmulatorIterators,
    tuned: options.tunedEmulatorStore,
    dynamoTransport: options.dynamoTransport,
  });
  const tableName = options.tableName ?? 'oncall';
  const queuePrefix = options.queuePrefix ?? tableName;

  // The functions read everything from the environment, as they do in Lambda.
  const environment = environmentScope();
  environment.setDefault('AWS_REGION', 'us-east-1');
  environment.set('AWS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
  environment.set('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
  if (emulators.embedded || !process.env.AWS_ACCESS_KEY_ID) {
    environment.set('AWS_ACCESS_KEY_ID', 'local');
    environment.set('AWS_SECRET_ACCESS_KEY', 'local');
    environment.set('AWS_SESSION_TOKEN', undefined);
    environment.set('AWS_PROFILE', undefined);
  }
  environment.set('AWS_ENDPOINT_URL_DYNAMODB', emulators.dynamodbEndpoint);
  environment.set('AWS_ENDPOINT_URL_SQS', emulators.sqsEndpoint);
  environment.set(EMBEDDED_EMULATORS_VARIABLE, emulators.embedded ? 'true' : undefined);
  environment.set('TABLE_NAME', tableName);
  environment.setDefault('OUTBOX', 'console');
  for (const [name, value] of Object.entries(options.env ?? {})) environment.set(name, value);

  const clientConfig = {
    region: process.env.AWS_REGION,
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! },
  };
  const dynamo = new DynamoDBClient({ ...clientConfig, endpoint: emulators.dynamodbEndpoint });
  // The pollers' client (every receive and delete of a batch: at a webhook a second, several calls
  // an alert) is made as the service's own are: unsigned against the embedded emulators, without
  // the user agent and logging middleware, its stack resolved once.
  const sqs = new SQSClient({ ...clientConfig, ...serviceClientConfig(), endpoint: emulators.sqsEndpoint });
  trimServiceClient(sqs);
  resolveStackOnce(sqs);
  const freshTable = await ensureTable(dynamo, tableName);
  const queues = await ensureQueues(sqs, queuePrefix, options.visibilityTimeoutSeconds);
  for (const queue of Object.values(QUEUES)) {
    environment.set(queue.urlVariable, queues[queue.name].url);
    environment.set(queue.dlqUrlVariable, queues[queue.name].dlqUrl);
  }

  environmentChanged();
  const restoreDependencies = replaceDependencies(options.dependencies ?? {});
  // The logger may have been made already, under another LOG_LEVEL: it follows this runtime's.
  const level = config().LOG_LEVEL.toUpperCase() as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
  logger.setLogLevel(level);

  const created = await bootstrap(options.bootstrap ?? {});

  let api: LocalApi;
  try {
    api = await startApi({
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 3000,
      console: options.consoleDir ? consoleSite(options.consoleDir) : undefined,
    });
  } catch (error) {
    restoreDependencies();
    environment.restore();
    await emulators.stop();
    throw error;
  }

  // Links e-mailed to people (password reset, one-click responses to pages) point at this server
  // unless CONSOLE_URL says otherwise.
  if (!process.env.CONSOLE_URL || process.env.CONSOLE_URL === ownConsoleUrl) {
    environment.set('CONSOLE_URL', (ownConsoleUrl = api.url));
    environmentChanged();
  }

  setUnhurriedLinger(options.unhurriedLingerMs ?? LOCAL_UNHURRIED_LINGER_MS);
  const pollers: Poller[] = [];
  for (const queue of Object.values(QUEUES)) {
    if (!entryExists(queue.consumer)) continue;
    const attributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queues[queue.name].url, AttributeNames: ['QueueArn'] }));
    pollers.push(
      startPoller({
        client: sqs,
        queueUrl: queues[queue.name].url,
        queueArn: attributes.Attributes?.QueueArn ?? queue.name,
        batchSize: queue.batchSize,
        concurrency: options.pollerConcurrency ?? queue.localPollers ?? 4,
        functionName: queue.consumer,
        loadHandler: async () => (await importEntry<{ handler: SqsHandler }>(queue.consumer)).handler,
        onError: (error) => console.error(`${queue.consumer}:`, error),
      }),
    );
  }

  const scheduled = (Object.keys(FUNCTIONS) as FunctionName[]).filter((name) => FUNCTIONS[name].schedule);
  const runScheduled = async (name: FunctionName) => {
    const module = await importEntry<{ handler: (event: unknown, context: Context) => Promise<unknown> }>(name);
    return runInBackground(() =>
      module.handler({ source: 'local.schedule', time: new Date().toISOString() }, { functionName: name } as Context),
    );
  };
  // A tick while the function's previous timed run still goes on is skipped (oneAtATime).
  const timers = scheduled.filter(entryExists).map((name) => {
    const tick = oneAtATime(() => runScheduled(name).catch((error) => console.error(`${name}:`, error)));
    return setInterval(() => void tick(), options.scheduleIntervalMs ?? 10_000);
  });

  // The embedded queue does not survive a restart: webhooks accepted before it (a crash, Ctrl-C)
  // whose messages were lost are re-driven now, not when the sweeper's grace period runs out. A table
  // created just now holds nothing to re-drive (every test service's: no sweep runs beside its tests).
  const redrive =
    entryExists('sweeper') && !freshTable
      ? importEntry<{ handler: (event: unknown) => Promise<unknown> }>('sweeper')
          .then((module) => module.handler({ source: 'local.startup', redrive: 'all', startedAt }))
          .catch((error: unknown) => console.error('start-up re-drive:', error))
      : Promise.resolve();

  return {
    url: api.url,
    tableName,
    queues,
    emulators,
    created,
    pollers,
    runScheduled,
    redrive,
    async stop() {
      timers.forEach(clearInterval);
      await redrive;
      // What the workers' counts wait for is written now, and what they write from here on at once.
      setUnhurriedLinger(0);
      await hurryUnhurried();
      await Promise.all(pollers.map((p) => p.stop()));
      await api.close();
      // The writes the workers left to finish after their work (their unhurried counts) land first.
      await lateWrites();
      restoreDependencies();
      environment.restore();
      dynamo.destroy();
      sqs.destroy();
      await emulators.stop();
    },
  };
}
