// Delivery receipts (docs/api.md#delivery-receipts): SES and End User Messaging publish what became
// of each message to the stack's SNS topic (DELIVERY_TOPIC_ARN), which delivers it here over HTTPS
// (POST /public/delivery/sns). Nothing is believed before the SNS signature and the topic check out
// (lib/integrations/sns, as for inbound SMS; an unreachable certificate is judged by
// SNS_SIGNATURE_REQUIRED, as for the inbound integrations). The event names the provider's message
// id; its pointer (one GetItem) names the notification, which takes the event's outcome in one
// conditional write: `delivered` and `failed` are final and the first one wins. A failed page
// message then fails over (lib/escalation/failover-signal.ts), also when SNS delivers the receipt
// again, so a crash after the write loses nothing.
import { now as clockNow } from '../clock';
import { config } from '../config';
import { BadRequest, NotFound } from '../http/errors';
import { loadOnce } from '../load-once';
import { receiveTopicMessage } from '../integrations/sns/receive-topic-message';
import type { NotificationRecord } from '../notify/records';
import { findProviderMessage, getNotification, moveNotification, type NotificationOutcome } from '../notify/store';
import { parseReceipt, type Receipt } from './receipt-events';

// A failed page's failover message (the SQS client with it) loads with the first failure a receipt
// reports: most receipts say delivered.
const loadFailoverSignal = /* @__PURE__ */ loadOnce(() => import('../escalation/failover-signal'));

export type ReceiptOutcome =
  /** The notification took the receipt's outcome (delivered, failed) or event type (progress). */
  | 'delivered'
  | 'failed'
  | 'recorded'
  /** The notification was delivered or failed already: the first final receipt stands. */
  | 'already_final'
  /** No notification has that provider message id: ignored. */
  | 'unknown_message'
  /** Not an SES or End User Messaging delivery event. */
  | 'ignored';

export interface DeliveryReceiptResult {
  received: 'subscription_confirmation' | 'unsubscribe_confirmation' | 'receipt';
  confirmed?: boolean;
  outcome?: ReceiptOutcome;
}

/** A notification whose status no receipt changes any more (an unknown outcome still may: the provider knows better). */
function isFinal(record: NotificationRecord): boolean {
  return record.status === 'delivered' || (record.status === 'failed' && record.provider_status !== 'unknown');
}

function eventJson(message: unknown): unknown {
  if (typeof message !== 'string') throw new BadRequest('Message must be the delivery event as a JSON string');
  try {
    return JSON.parse(message) as unknown;
  } catch {
    throw new BadRequest('Message is not JSON: it must be an SES or End User Messaging delivery event');
  }
}

export async function receiveDeliveryReceipt(rawBody: string): Promise<DeliveryReceiptResult> {
  const { DELIVERY_TOPIC_ARN: topicArn, SNS_SIGNATURE_REQUIRED: signatureRequired } = config();
  if (!topicArn) throw new NotFound('Delivery receipts are not configured (DELIVERY_TOPIC_ARN)');
  const received = await receiveTopicMessage(rawBody, { topicArn, signatureRequired, what: 'delivery receipts' });
  if (received.type === 'subscription_confirmation') return { received: 'subscription_confirmation', confirmed: received.confirmed };
  if (received.type === 'unsubscribe_confirmation') return { received: 'unsubscribe_confirmation' };
  const receipt = parseReceipt(eventJson(received.message.Message));
  if (!receipt) return { received: 'receipt', outcome: 'ignored' };
  const pointer = await findProviderMessage(receipt.provider, receipt.messageId);
  const record = pointer ? await getNotification(pointer.accountId, pointer.notificationId) : null;
  if (!record) return { received: 'receipt', outcome: 'unknown_message' };
  return { received: 'receipt', outcome: await takeReceipt(record, receipt) };
}

/**
 * A receipt for a notification already found: its outcome written, and a failed page message failed
 * over. Also the receipts of calls the service places itself (lib/voice-calls: answered, no answer).
 */
export async function takeReceipt(record: NotificationRecord, receipt: Receipt): Promise<ReceiptOutcome> {
  const { outcome, after } = await applyReceipt(record, receipt);
  // A failure is reported whoever wrote it (this receipt, an earlier delivery of it, the sender): the engine counts it once.
  if (after.status === 'failed') await (await loadFailoverSignal()).reportFailedMessages([after]);
  return outcome;
}

/** What the receipt changes on a notification read in `status`. */
function outcomeOf(record: NotificationRecord, receipt: Receipt): NotificationOutcome {
  const at = new Date(receipt.at ?? clockNow()).toISOString();
  const identity = {
    provider: record.provider ?? receipt.provider,
    provider_message_id: receipt.messageId,
    provider_status: receipt.eventType,
  };
  if (receipt.outcome === 'progress') return { status: record.status, ...identity };
  // A receipt can overtake the sender's own record of the provider's answer (still `sending`).
  const sentAt = record.sent_at ?? at;
  if (receipt.outcome === 'delivered') return { status: 'delivered', ...identity, sent_at: sentAt, delivered_at: at, err: [] };
  return { status: 'failed', ...identity, sent_at: sentAt, err: [...record.err, receipt.reason ?? receipt.eventType] };
}

/** The receipt applied by a conditional write on the status read (a lost race reads again). */
async function applyReceipt(record: NotificationRecord, receipt: Receipt): Promise<{ outcome: ReceiptOutcome; after: NotificationRecord }> {
  let current: NotificationRecord | null = record;
  for (let attempt = 0; current && attempt < 5; attempt++) {
    if (isFinal(current)) return { outcome: 'already_final', after: current };
    // Progress on a message whose outcome is unknown says nothing final: it stays as it is.
    if (receipt.outcome === 'progress' && current.status !== 'sending' && current.status !== 'sent')
      return { outcome: 'ignored', after: current };
    const providerStatusIn = current.status === 'failed' ? ['unknown'] : undefined;
    const moved = await moveNotification(
      current.account_id,
      current.id,
      [current.status],
      outcomeOf(current, receipt),
      new Date(clockNow()).toISOString(),
      providerStatusIn,
    );
    if (moved) return { outcome: receipt.outcome === 'progress' ? 'recorded' : receipt.outcome, after: moved };
    current = await getNotification(record.account_id, record.id);
  }
  if (!current) throw new Error(`notification ${record.id} vanished while a receipt was applied`);
  throw new Error(`notification ${record.id} kept changing while a receipt was applied`);
}
