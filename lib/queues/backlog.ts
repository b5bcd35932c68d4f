// Whether a queue is backed up, for the sweeper's re-sends (pending inbound requests, unrouted
// alerts). A re-send is a safety net for a message that never reached its queue (the process died
// between the write and the send); a message that reached it is delivered by SQS however long the
// line. While the queue holds messages, an item whose grace period passed may simply be waiting in
// that line: re-sending it then only adds a duplicate behind it, and under a storm every item was
// re-sent, then again as the backoff came round, which fed the backlog it came from (10 000 webhooks
// on the local runtime: 14–27 DynamoDB calls an alert once the re-sends began, 11.5 without them).
// So, while the queue holds messages, the sweeper re-sends only what has waited BACKLOG_WAIT_MS past
// its grace period (or what is known unsent: marked overdue by that much when its send failed);
// once the queue is empty, anything due is surely not in it and goes at once. Deployed, reading the
// depth needs sqs:GetQueueAttributes, which CDK's grantSendMessages gives every function that sends
// to the queue (the sweeper sends to both).
import { logger } from '../log';
import { depthOf } from './depths';

/** How long past its grace period an item may wait in a backed-up queue before it is re-sent anyway. */
export const BACKLOG_WAIT_MS = 15 * 60_000;

/**
 * Messages the queue holds, waiting or in flight (SQS's approximate counts); 0 when the queue cannot
 * be read (the sweeper then re-sends what is due, as it would without this check).
 */
export async function messagesHeld(queueUrl: string): Promise<number> {
  try {
    const depth = await depthOf(queueUrl);
    return depth.waiting + depth.in_flight;
  } catch (error) {
    logger.warn('queue depth unreadable: re-sending what is due', { error: error as Error });
    return 0;
  }
}

/**
 * The due time up to which the sweeper re-sends items of `queueUrl` now: `now` while the queue is
 * empty, else BACKLOG_WAIT_MS earlier (items due since then have waited that long past their grace).
 */
export async function resendDueBy(queueUrl: string | undefined, now: number): Promise<number> {
  if (!queueUrl) return now;
  return (await messagesHeld(queueUrl)) > 0 ? now - BACKLOG_WAIT_MS : now;
}

/** The due time of an item known not to be in its queue (its send failed): due for a re-send even behind a backlog. */
export const overdue = (now: number): number => now - BACKLOG_WAIT_MS;
