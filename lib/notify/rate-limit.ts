// Storm protection, the claim side: at most one SMS and one call per person per minute (÷
// TIME_SCALE). A message whose person's window is open, with nothing waiting, claims it (one
// conditional update of the person's rate item) and goes out at once; otherwise it waits (an item of
// its own and an ADD of the count: appends never contend) and a flush is scheduled for when the
// window opens (a delayed queue message, and the due index for the sweeper). ./storm.ts sends what
// waited, bundled into one message.
import { now as clockNow, scaledMs } from '../clock';
import { config } from '../config';
import { logger } from '../log';
import { sendAt } from '../queues/delayed';
import { SEND_WINDOW_MS } from './content/bundling';
import type { NotificationRecord } from './records';
import { addWaiting, claimSendWindow, getRateItem, moveNotification, type RateItem } from './store';

/** The window between two messages to one person on one channel, ÷ TIME_SCALE. */
export function sendWindowMs(): number {
  return Math.max(1, scaledMs(SEND_WINDOW_MS));
}

export interface FlushMessage {
  kind: 'flush';
  account_id: string;
  account_user_id: string;
  channel: string;
  due_at: number;
}

/** Asks for a flush at `dueAt` on the escalation queue (the due index covers a lost message). */
export async function scheduleFlush(rate: Pick<RateItem, 'account_id' | 'account_user_id' | 'channel'>, dueAt: number): Promise<void> {
  const queueUrl = config().ESCALATION_QUEUE_URL;
  if (!queueUrl) return;
  const body: FlushMessage = {
    kind: 'flush',
    account_id: rate.account_id,
    account_user_id: rate.account_user_id,
    channel: rate.channel,
    due_at: dueAt,
  };
  try {
    await sendAt(queueUrl, JSON.stringify(body), dueAt, clockNow());
  } catch (error) {
    logger.warn('storm protection: flush message not sent; the sweeper will flush', { error: error as Error });
  }
}

/**
 * True: the window was open and is now claimed by this message (send it now). False: it waits (its
 * status stays queued, provider_status waiting) for the flush when the window opens.
 */
export async function queueRateLimited(record: NotificationRecord): Promise<boolean> {
  if (!record.account_user_id) return true;
  const [accountId, accountUserId, channel] = [record.account_id, record.account_user_id, record.channel];
  const now = clockNow();
  const window = sendWindowMs();
  if (await claimSendWindow(accountId, accountUserId, channel, now, window)) return true;
  const rate = await getRateItem(accountId, accountUserId, channel);
  const dueAt = Math.max(now, (rate.last_sent_at ?? now) + window);
  await moveNotification(accountId, record.id, ['queued'], { status: 'queued', provider_status: 'waiting' }, new Date(now).toISOString());
  if (await addWaiting(accountId, accountUserId, channel, record.id, dueAt)) await scheduleFlush(rate, dueAt);
  return false;
}
