// The escalation queue's consumer use case: a `due` message runs whatever the alert's escalation has
// due (a message that arrives early, because SQS delays at most 15 minutes and by whole seconds, is
// held in process for its last moment or sent on again), a `flush` message sends a person's waiting
// SMS or call, a `delivery_failed` message fails a page over (the notification is read again: only
// a page message that is failed now counts). All are idempotent: a step that finds nothing to do
// writes nothing, and the engine counts a failed message once.
import { now as clockNow, sleep } from '../clock';
import { getNotification } from '../notify/store';
import { IN_PROCESS_WAIT_MS } from '../queues/delayed';
import { isFailedPageMessage, type DeliveryFailedMessage } from './failover-signal';
import { flushWaiting } from './flush-waiting';
import { withCountsDeferred } from '../store/deferred-counts';
import { runStep } from './run-step';
import { sendEffects } from './send-effects';
import { chainMessage, type EscalationMessage } from './timers';

/**
 * A message's work holds back the counts it moves (its step's notifications and their owners, the
 * timeline entries, a drop's alert counters) and writes them summed once it is done, after the step
 * released its lease (lib/store/deferred-counts.ts).
 */
export function processEscalationMessage(message: EscalationMessage): Promise<void> {
  return withCountsDeferred(() => processNow(message));
}

async function processNow(message: EscalationMessage): Promise<void> {
  const early = message.due_at - clockNow();
  if (early > IN_PROCESS_WAIT_MS) {
    await chainMessage(message);
    return;
  }
  if (early > 0) await sleep(early);
  if (message.kind === 'due')
    await runStep(message.account_id, message.alert_id, { kind: 'due' }, { send: sendEffects, retriedByQueue: true });
  else if (message.kind === 'delivery_failed') await failOver(message);
  else await flushWaiting(message.account_id, message.account_user_id, message.channel as 'sms' | 'voice');
}

async function failOver(message: DeliveryFailedMessage): Promise<void> {
  const record = await getNotification(message.account_id, message.notification_id);
  if (!record || !isFailedPageMessage(record) || record.alert_id !== message.alert_id) return;
  await runStep(
    message.account_id,
    message.alert_id,
    {
      kind: 'event',
      event: { type: 'delivery_failed', workflowId: record.workflow_id!, messageId: record.id, channel: record.channel },
    },
    { send: sendEffects, retriedByQueue: true },
  );
}
