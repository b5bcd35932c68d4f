// A page's message failed (its provider refused it, the person has no address for the channel, a
// delivery receipt said so, or a crash left its outcome unknown): its escalation hears of it at
// once through a `delivery_failed` message on the escalation queue, and the escalation worker
// fails over (process-message.ts → the engine's delivery_failed). Whoever records a failure
// reports it, and a report may come twice (a redelivered step, a receipt SNS sends again): the
// engine counts each failed message once. A send that fails throws, so the caller is retried
// (a step's outbox, SNS's delivery) and the failure is not lost.
import { now as clockNow } from '../clock';
import { config } from '../config';
import { logger } from '../log';
import type { NotificationRecord } from '../notify/records';
import { sendAt } from '../queues/delayed';

export interface DeliveryFailedMessage {
  kind: 'delivery_failed';
  account_id: string;
  alert_id: string;
  notification_id: string;
  due_at: number;
}

const PAGE_TEMPLATES = new Set(['alert_alert', 'alert_handoff']);

/** A message of a page (it has a workflow) that failed; a cancelled one (its page was answered first) is not a failure. */
export function isFailedPageMessage(record: NotificationRecord): boolean {
  return (
    record.status === 'failed' &&
    record.provider_status !== 'cancelled' &&
    record.workflow_id !== null &&
    record.alert_id !== null &&
    PAGE_TEMPLATES.has(record.template)
  );
}

/** Tells each failed page message's escalation, now. Other records are passed over. */
export async function reportFailedMessages(records: readonly NotificationRecord[]): Promise<void> {
  const failed = records.filter(isFailedPageMessage);
  if (failed.length === 0) return;
  const queueUrl = config().ESCALATION_QUEUE_URL;
  if (!queueUrl) {
    logger.warn('ESCALATION_QUEUE_URL is not configured: a failed page waits out its layer instead of failing over');
    return;
  }
  const now = clockNow();
  await Promise.all(
    failed.map((record) => {
      const message: DeliveryFailedMessage = {
        kind: 'delivery_failed',
        account_id: record.account_id,
        alert_id: record.alert_id!,
        notification_id: record.id,
        due_at: now,
      };
      return sendAt(queueUrl, JSON.stringify(message), now, now);
    }),
  );
}
