// The service's queues, described once: the CDK stack creates exactly these (with a dead-letter queue
// each), the local runtime mirrors them, and the functions read their URLs from the variables named
// here (GET /health reports their depths; the ingest worker knows its redrive limit).

export type QueueName = 'ingest' | 'routing' | 'webhooks' | 'escalation';
export type WorkerName = 'ingestWorker' | 'routingWorker' | 'webhookWorker' | 'escalationWorker';

export interface QueueDefinition {
  name: QueueName;
  /** Environment variable that carries the queue's URL to every function that uses it. */
  urlVariable: string;
  /** …and its dead-letter queue's URL, to the functions that report queue depths (health). */
  dlqUrlVariable: string;
  consumer: WorkerName;
  batchSize: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** Maximum time the event source waits to fill a batch. */
  maxBatchingWindowSeconds: number;
  /**
   * Parallel receive loops of the local runtime's poller (default 4), as the concurrent invocations
   * a mapping scales to. The alerts' path (ingest, routing) has 8: a batch's handler waits on its
   * calls most of its time, and with 4 a storm of 200 webhooks a second queued for the routing
   * worker (p50 0.6 s waiting in the queue for 4 batches of ~9 taking ~0.16 s each; with 8, 12 ms).
   */
  localPollers?: number;
}

export const QUEUES: Record<QueueName, QueueDefinition> = {
  ingest: {
    name: 'ingest',
    urlVariable: 'INGEST_QUEUE_URL',
    dlqUrlVariable: 'INGEST_DLQ_URL',
    consumer: 'ingestWorker',
    batchSize: 10,
    maxReceiveCount: 4,
    maxBatchingWindowSeconds: 0,
    localPollers: 8,
  },
  routing: {
    name: 'routing',
    urlVariable: 'ROUTING_QUEUE_URL',
    dlqUrlVariable: 'ROUTING_DLQ_URL',
    consumer: 'routingWorker',
    batchSize: 10,
    maxReceiveCount: 4,
    maxBatchingWindowSeconds: 0,
    localPollers: 8,
  },
  // Alert events for outgoing webhooks, and their deliveries' retries (delayed messages; a pending
  // delivery is also in the table, so the sweeper re-drives one whose message was lost).
  webhooks: {
    name: 'webhooks',
    urlVariable: 'WEBHOOK_QUEUE_URL',
    dlqUrlVariable: 'WEBHOOK_DLQ_URL',
    consumer: 'webhookWorker',
    batchSize: 10,
    maxReceiveCount: 4,
    maxBatchingWindowSeconds: 0,
  },
  // Escalation timers (delayed messages, chained past 15 minutes), delayed starts and storm-bundle
  // flushes. A message lost with a crashed queue is re-driven from the table by the sweeper. Also
  // Slack clicks, accepted here before Slack is answered (lib/slack/interaction-queue.ts).
  escalation: {
    name: 'escalation',
    urlVariable: 'ESCALATION_QUEUE_URL',
    dlqUrlVariable: 'ESCALATION_DLQ_URL',
    consumer: 'escalationWorker',
    batchSize: 10,
    maxReceiveCount: 5,
    maxBatchingWindowSeconds: 0,
    localPollers: 8,
  },
};

/** Days a dead-letter queue keeps a message. */
export const DLQ_RETENTION_DAYS = 14;
