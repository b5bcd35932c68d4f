// How deep each queue and its dead-letter queue are (GET /health): a message waiting in a DLQ is an
// alert, a webhook or a page that needs someone's eyes. One GetQueueAttributes per queue, in parallel,
// remembered for a few seconds so a health check cannot be turned into a flood of SQS calls.
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { now as clockNow } from '../clock';
import { sqs } from './client';

export interface QueueToWatch {
  name: string;
  url: string | undefined;
  dlqUrl: string | undefined;
}

export interface QueueDepth {
  /** Messages waiting to be received. */
  waiting: number;
  /** Received and being worked on (not yet deleted). */
  in_flight: number;
  /** Messages that exhausted their receives and rest in the dead-letter queue. */
  dead_letters: number;
}

export type QueueDepths = Record<string, QueueDepth | { error: string }>;

const REMEMBER_MS = 5_000;
let remembered: { at: number; depths: QueueDepths } | null = null;

/** One queue's messages waiting and in flight (SQS's approximate counts): GET /health, and the sweeper's backlog check (./backlog.ts). */
export async function depthOf(url: string): Promise<{ waiting: number; in_flight: number }> {
  const out = await sqs().send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  const attributes = out.Attributes ?? {};
  return {
    waiting: Number(attributes.ApproximateNumberOfMessages ?? 0),
    in_flight: Number(attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
  };
}

/** Each queue's depth, or why it could not be read; `now` for tests. */
export async function queueDepths(queues: QueueToWatch[], now = clockNow()): Promise<QueueDepths> {
  if (remembered && now >= remembered.at && now - remembered.at < REMEMBER_MS) return remembered.depths;
  const entries = await Promise.all(
    queues.map(async (queue): Promise<[string, QueueDepth | { error: string }]> => {
      if (!queue.url || !queue.dlqUrl) return [queue.name, { error: 'not configured' }];
      try {
        const [main, dlq] = await Promise.all([depthOf(queue.url), depthOf(queue.dlqUrl)]);
        return [queue.name, { ...main, dead_letters: dlq.waiting + dlq.in_flight }];
      } catch (error) {
        return [queue.name, { error: (error as Error).name || 'unreadable' }];
      }
    }),
  );
  const depths = Object.fromEntries(entries);
  remembered = { at: now, depths };
  return depths;
}
