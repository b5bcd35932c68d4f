// Escalation's queue messages (lib/queues/definitions.ts `escalation`): `due` wakes an alert's escalation
// at a time (a layer's timeout, a delivery of a notification plan, a delayed start), `flush` sends a
// person's waiting SMS or call (storm protection, lib/notify), `delivery_failed` fails a page over to
// the person's next channel (failover-signal.ts). Delayed by whole seconds up to 15
// minutes and chained past that (lib/queues/delayed.ts); the due index re-drives a lost one.
import { now as clockNow } from '../clock';
import { config } from '../config';
import { logger } from '../log';
import type { FlushMessage } from '../notify/rate-limit';
import { sendAt } from '../queues/delayed';
import type { DeliveryFailedMessage } from './failover-signal';

export interface DueMessage {
  kind: 'due';
  account_id: string;
  alert_id: string;
  due_at: number;
}

export type EscalationMessage = DueMessage | FlushMessage | DeliveryFailedMessage;

/** Asks for a step of the alert's escalation at `dueAt`. A send that fails is logged: the sweeper re-drives it. */
export async function scheduleDue(accountId: string, alertId: string, dueAt: number): Promise<void> {
  const queueUrl = config().ESCALATION_QUEUE_URL;
  if (!queueUrl) {
    logger.warn('ESCALATION_QUEUE_URL is not configured: escalation timers fire through the sweeper only');
    return;
  }
  const body: DueMessage = { kind: 'due', account_id: accountId, alert_id: alertId, due_at: dueAt };
  try {
    await sendAt(queueUrl, JSON.stringify(body), dueAt, clockNow());
  } catch (error) {
    logger.warn('escalation timer not sent; the sweeper will re-drive it', { alertId, dueAt, error: error as Error });
  }
}

/** Sends a message on again (it arrived more than a moment early: SQS delays at most 15 minutes). */
export async function chainMessage(message: EscalationMessage): Promise<void> {
  const queueUrl = config().ESCALATION_QUEUE_URL;
  if (!queueUrl) throw new Error('ESCALATION_QUEUE_URL is not configured');
  await sendAt(queueUrl, JSON.stringify(message), message.due_at, clockNow());
}

export function parseEscalationMessage(body: string): EscalationMessage | null {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (
      parsed?.kind === 'due' &&
      typeof parsed.account_id === 'string' &&
      typeof parsed.alert_id === 'string' &&
      typeof parsed.due_at === 'number'
    ) {
      return { kind: 'due', account_id: parsed.account_id, alert_id: parsed.alert_id, due_at: parsed.due_at };
    }
    if (
      parsed?.kind === 'delivery_failed' &&
      typeof parsed.account_id === 'string' &&
      typeof parsed.alert_id === 'string' &&
      typeof parsed.notification_id === 'string' &&
      typeof parsed.due_at === 'number'
    ) {
      return {
        kind: 'delivery_failed',
        account_id: parsed.account_id,
        alert_id: parsed.alert_id,
        notification_id: parsed.notification_id,
        due_at: parsed.due_at,
      };
    }
    if (
      parsed?.kind === 'flush' &&
      typeof parsed.account_id === 'string' &&
      typeof parsed.account_user_id === 'string' &&
      (parsed.channel === 'sms' || parsed.channel === 'voice') &&
      typeof parsed.due_at === 'number'
    ) {
      return {
        kind: 'flush',
        account_id: parsed.account_id,
        account_user_id: parsed.account_user_id,
        channel: parsed.channel,
        due_at: parsed.due_at,
      };
    }
  } catch {
    // fall through
  }
  return null;
}
