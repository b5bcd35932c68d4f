// Timers as delayed queue messages. SQS delays a message by whole seconds, at most 15 minutes: a
// message for a later time is delivered early and sent on again (chained) by its consumer, and the
// delay is rounded down so a message never arrives late; the consumer waits out the last second in
// process. Concurrent sends to one queue share SendMessageBatch calls (10 to a batch).
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { KeyedGroupCommit } from '../group-commit';
import { sqs } from './client';

/** SQS's longest delay. */
export const MAX_DELAY_SECONDS = 900;
/** A message due within this much is handled in process instead of being sent on again. */
export const IN_PROCESS_WAIT_MS = 1_500;

interface Delayed {
  body: string;
  delaySeconds: number;
}

const sends = new KeyedGroupCommit<Delayed, void>(
  (queueUrl) => async (messages) => {
    const out = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: messages.map((message, i) => ({ Id: String(i), MessageBody: message.body, DelaySeconds: message.delaySeconds })),
      }),
    );
    const failed = new Map((out.Failed ?? []).map((f) => [f.Id, new Error(f.Message ?? f.Code ?? 'send failed')]));
    return messages.map((_, i) => failed.get(String(i)));
  },
  10,
  4,
);

/** The delay to ask for a message due in `remainingMs`: whole seconds, rounded down, at most 15 minutes. */
export function delaySecondsFor(remainingMs: number): number {
  if (!(remainingMs > 0)) return 0;
  return Math.min(MAX_DELAY_SECONDS, Math.floor(remainingMs / 1000));
}

/** Sends `body` to arrive at `dueAt` (epoch ms, by the service's clock `now`), or at most 15 minutes from now. */
export function sendAt(queueUrl: string, body: string, dueAt: number, now: number): Promise<void> {
  return sends.add(queueUrl, { body, delaySeconds: delaySecondsFor(dueAt - now) });
}
