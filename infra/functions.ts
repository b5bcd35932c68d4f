// Every function of the service, described once; its queues are in lib/queues/definitions.ts. The CDK
// stack deploys exactly these and the local runtime mirrors them (same handler modules, same queues
// with the same redrive settings).
import type { QueueDefinition, QueueName, WorkerName } from '../lib/queues/definitions';
import { HTTP_FUNCTIONS, type HttpFunctionName } from '../lib/api/route-table';

export { DLQ_RETENTION_DAYS, QUEUES, type QueueDefinition, type QueueName } from '../lib/queues/definitions';

export type ScheduledName = 'sweeper';
export type FunctionName = HttpFunctionName | WorkerName | ScheduledName;

export interface FunctionDefinition {
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** Access to the table (least privilege: the catch-all needs none). */
  table: 'none' | 'readWrite';
  /** Queues the function sends to. */
  sendsTo: QueueName[];
  /** Schedule expression for scheduled functions. */
  schedule?: string;
  /** Reads the depth of every queue and its dead-letter queue (GET /health): sqs:GetQueueAttributes
   * on each, nothing more. */
  readsQueueDepths?: boolean;
  /** Sends notifications (pages, welcome and password messages, SMS replies): gets the delivery
   * providers' configuration and their grants, when the deployment configures them. */
  notifies?: boolean;
  /** Talks to Slack (pages by Slack, team messages, clicks): gets the Slack settings (infra/constructs/slack.ts). */
  slack?: boolean;
  /** Opens sealed secrets (Slack's, single sign-on's client secrets): gets the key that seals them, SECRETS_KEY. */
  opensSealedSecrets?: boolean;
}

/** The functions whose bundle reaches a provider (lib/notify/providers/select-provider.ts: pages, SMS replies; test/infra checks the list against the bundles' imports). */
export const NOTIFYING_FUNCTIONS: readonly FunctionName[] = [
  'accountUsers',
  'broadcasts',
  'public',
  'smsInbound',
  'routingWorker',
  // also Slack's clicks: an answer to a broadcast may run the broadcast's step (lib/broadcasts/respond-broadcast.ts)
  'escalationWorker',
  'sweeper',
];

/** The functions that talk to Slack, opening its sealed bot tokens and signing secrets: every
 * notifying function (a page by Slack), the Slack function (signatures) and the worker of the team
 * messages. */
export const SLACK_FUNCTIONS: readonly FunctionName[] = [...NOTIFYING_FUNCTIONS, 'slack', 'webhookWorker'];

/** The functions whose bundle opens sealed secrets (lib/auth/sealed-secrets.ts): Slack's, and single
 * sign-on's client secret (the sso function); test/infra checks the list against the bundles' imports. */
export const SEALING_FUNCTIONS: readonly FunctionName[] = [...SLACK_FUNCTIONS, 'sso'];

/** Every function that changes alerts publishes their events (lib/alerts/alert-events.ts). */
const CHANGES_ALERTS: QueueName[] = ['webhooks'];

const HTTP_TIMEOUT = 10;
/** An import reads a whole account from its source and writes it here: minutes for a large one.
 * API Gateway answers 504 after 29 s; the function goes on to the end (a re-run is idempotent). */
const IMPORT_TIMEOUT = 900;
const WORKER_TIMEOUT = 30;

function httpFunction(name: HttpFunctionName): FunctionDefinition {
  const sends: Partial<Record<HttpFunctionName, QueueName[]>> = {
    alerts: ['routing', 'escalation', ...CHANGES_ALERTS],
    // a heartbeat's beat resolves the alert of its miss (escalation's stop, the timeline's event)
    inbound: ['ingest', 'escalation', ...CHANGES_ALERTS],
    integrations: ['escalation', ...CHANGES_ALERTS],
    respond: ['escalation', ...CHANGES_ALERTS],
    smsInbound: ['escalation', ...CHANGES_ALERTS],
    // a failed page message fails over through the escalation worker
    deliveryReceipts: ['escalation'],
    // a broadcast's delivery and deadline are timers on the escalation queue
    broadcasts: ['escalation'],
    // clicks and /oncall act on alerts (escalation's stop, a reject's next layer) and create them
    slack: ['routing', 'escalation', ...CHANGES_ALERTS],
  };
  return {
    entry: `functions/http/${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`,
    table: name === 'notFound' ? 'none' : 'readWrite',
    timeoutSeconds: name === 'imports' ? IMPORT_TIMEOUT : HTTP_TIMEOUT,
    memoryMb: 1024,
    sendsTo: sends[name] ?? [],
    ...(name === 'public' ? { readsQueueDepths: true } : {}),
  };
}

const DEFINITIONS: Record<FunctionName, FunctionDefinition> = {
  ...(Object.fromEntries(HTTP_FUNCTIONS.map((name) => [name, httpFunction(name)])) as Record<HttpFunctionName, FunctionDefinition>),
  ingestWorker: {
    entry: 'functions/queue/ingest-worker.ts',
    table: 'readWrite',
    timeoutSeconds: WORKER_TIMEOUT,
    memoryMb: 1024,
    sendsTo: ['routing', ...CHANGES_ALERTS],
  },
  routingWorker: {
    entry: 'functions/queue/routing-worker.ts',
    table: 'readWrite',
    timeoutSeconds: WORKER_TIMEOUT,
    memoryMb: 1024,
    sendsTo: ['routing', 'escalation', ...CHANGES_ALERTS],
  },
  escalationWorker: {
    entry: 'functions/queue/escalation-worker.ts',
    table: 'readWrite',
    timeoutSeconds: WORKER_TIMEOUT,
    memoryMb: 1024,
    sendsTo: ['escalation', ...CHANGES_ALERTS],
  },
  // Deliveries wait at most 5 s each and run side by side: well inside the timeout.
  webhookWorker: {
    entry: 'functions/queue/webhook-worker.ts',
    table: 'readWrite',
    timeoutSeconds: WORKER_TIMEOUT,
    memoryMb: 512,
    sendsTo: ['webhooks'],
  },
  sweeper: {
    entry: 'functions/scheduled/sweeper.ts',
    table: 'readWrite',
    timeoutSeconds: 60,
    memoryMb: 512,
    sendsTo: ['ingest', 'routing', 'escalation', ...CHANGES_ALERTS],
    schedule: 'rate(1 minute)',
  },
};

export const FUNCTIONS: Record<FunctionName, FunctionDefinition> = Object.fromEntries(
  Object.entries(DEFINITIONS).map(([name, definition]) => [
    name,
    {
      ...definition,
      ...(NOTIFYING_FUNCTIONS.includes(name as FunctionName) ? { notifies: true } : {}),
      ...(SLACK_FUNCTIONS.includes(name as FunctionName) ? { slack: true } : {}),
      ...(SEALING_FUNCTIONS.includes(name as FunctionName) ? { opensSealedSecrets: true } : {}),
    },
  ]),
) as Record<FunctionName, FunctionDefinition>;

/** SQS visibility timeout: six times the consumer's timeout, as AWS recommends for Lambda sources. */
export function visibilityTimeoutSeconds(queue: QueueDefinition): number {
  return FUNCTIONS[queue.consumer].timeoutSeconds * 6;
}

/**
 * The function the Amazon Chime SDK SIP media application invokes with its calls' events (pages you
 * can answer, live call routing; infra/constructs/voice.ts): deployed only with `-c voiceProvider=chime`,
 * so it is not in FUNCTIONS. It answers within Chime's few seconds: a short timeout. A live call opens
 * an alert (routing) and a key acts on one (escalation, the alert's events).
 */
export const SIP_MEDIA_FUNCTION: FunctionDefinition = {
  entry: 'functions/voice/sip-media.ts',
  table: 'readWrite',
  timeoutSeconds: 10,
  memoryMb: 1024,
  sendsTo: ['routing', 'escalation', ...CHANGES_ALERTS],
};

/** The provider of the Chime SDK resources CloudFormation has no type for (infra/chime-resources/handler.ts): a phone number order may take minutes. */
export const CHIME_RESOURCES_FUNCTION: FunctionDefinition = {
  entry: 'infra/chime-resources/handler.ts',
  table: 'none',
  timeoutSeconds: 900,
  memoryMb: 256,
  sendsTo: [],
};
