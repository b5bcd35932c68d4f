// Messages of the webhooks queue: alert events to fan out (lib/alerts/alert-events.ts publishes them)
// and delivery tries, delayed by up to SQS's 15 minutes; a longer wait is a chain of delayed messages.
import type { AlertEventMessage } from '../alerts/alert-events';
import { config } from '../config';
import { sendDelayed } from '../queues/client';

export interface DeliveryMessage {
  kind: 'delivery';
  account_id: string;
  delivery_id: string;
}

export type WebhookMessage = AlertEventMessage | DeliveryMessage;

export function parseWebhookMessage(body: string): WebhookMessage | null {
  try {
    const parsed = JSON.parse(body) as Partial<WebhookMessage>;
    if (parsed?.kind === 'delivery' && typeof parsed.account_id === 'string' && typeof parsed.delivery_id === 'string') {
      return parsed as DeliveryMessage;
    }
    if (
      parsed?.kind === 'event' &&
      typeof parsed.account_id === 'string' &&
      typeof parsed.alert_id === 'string' &&
      typeof parsed.event === 'string' &&
      typeof parsed.event_id === 'string' &&
      Array.isArray(parsed.subscribers)
    ) {
      return parsed as AlertEventMessage;
    }
  } catch {
    // fall through
  }
  return null;
}

/** Asks for a try of the delivery in `delayMs` (at most 15 minutes; the try re-sends itself if early). */
export async function sendDeliveryMessage(accountId: string, deliveryId: string, delayMs: number): Promise<void> {
  const queueUrl = config().WEBHOOK_QUEUE_URL;
  if (!queueUrl) throw new Error('WEBHOOK_QUEUE_URL is not configured: webhook deliveries cannot be retried');
  const message: DeliveryMessage = { kind: 'delivery', account_id: accountId, delivery_id: deliveryId };
  // Under a second, the try waits in place when it arrives early (deliver.ts): no whole-second rounding.
  await sendDelayed(queueUrl, JSON.stringify(message), delayMs < 1_000 ? 0 : Math.min(900, delayMs / 1000));
}
