// Runs a queue's worker over what is on the queue now, the way the event source mapping would, but in
// the test's own hands: for tests that start the runtime without pollers, so that nothing moves behind
// their back, and then want the workers' work done (and to see a record fail).
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context } from 'aws-lambda';
import { FUNCTIONS, QUEUES, type QueueName } from '../../infra/functions';
import { toRecord, type SqsHandler } from '../../infra/local/sqs-poller';
import type { TestService } from './runtime';

export interface Drained {
  handled: number;
  /** Bodies of the records the worker reported as failed. */
  failed: string[];
}

/** Receives every message of `queue` in batches, hands each batch to its worker and deletes it. */
export async function drainQueue(service: TestService, queue: QueueName): Promise<Drained> {
  const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    const { consumer } = QUEUES[queue];
    const { handler } = (await import(`../../${FUNCTIONS[consumer].entry}`)) as { handler: SqsHandler };
    const url = service.runtime.queues[queue].url;
    const drained: Drained = { handled: 0, failed: [] };
    for (let empty = 0; empty < 2;) {
      const received = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 60, AttributeNames: ['All'] }),
      );
      const messages = received.Messages ?? [];
      if (messages.length === 0) {
        empty++;
        continue;
      }
      const event = { Records: messages.map((m) => toRecord(m, `arn:aws:sqs:local:000000000000:${queue}`)) };
      const response = await handler(event, { functionName: consumer, getRemainingTimeInMillis: () => 30_000 } as unknown as Context);
      for (const failure of response?.batchItemFailures ?? []) {
        drained.failed.push(messages.find((m) => m.MessageId === failure.itemIdentifier)?.Body ?? failure.itemIdentifier);
      }
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
      drained.handled += messages.length;
    }
    return drained;
  } finally {
    sqs.destroy();
  }
}

/**
 * Brings the queues given to rest for a runtime started without pollers: drains them in turn until a
 * whole round finds nothing to do. Delayed messages that are not due yet stay where they are.
 */
export async function settleQueues(service: TestService, queues: readonly QueueName[], maxRounds = 20): Promise<void> {
  for (let round = 0; round < maxRounds; round++) {
    let handled = 0;
    for (const queue of queues) handled += (await drainQueue(service, queue)).handled;
    if (handled === 0) return;
  }
  throw new Error(`${queues.join(', ')} did not come to rest in ${maxRounds} rounds`);
}
