// What a provider's delivery event says about one message (docs/api.md#delivery-receipts), read
// from the JSON SNS carries: SES event publishing (`eventType`, `mail.messageId`, and the event's
// own object: `delivery`, `bounce`, `complaint`, `reject`, `failure`) and End User Messaging SMS
// and voice v2 event destinations (`eventType` TEXT_… / VOICE_…, `messageId`, `eventTimestamp`,
// `messageStatus`, `messageStatusDescription`). Pure: the field names are AWS's, the outcomes the
// contract's. Event types the contract does not name final (SES Send, DeliveryDelay, a transient
// Bounce; TEXT_SUCCESSFUL, TEXT_PENDING, VOICE_RINGING, …) are progress: shown, never final.

/** `chime-voice`: a call's outcome, told by the SIP media application's function (lib/voice-calls), not by SNS. */
export type ReceiptProvider = 'ses' | 'sms-voice-v2' | 'chime-voice';
export type ReceiptOutcome = 'delivered' | 'failed' | 'progress';

export interface Receipt {
  /** The provider as the notification names it (`provider`). */
  provider: ReceiptProvider;
  /** The provider's id of the message: the notification's `provider_message_id`. */
  messageId: string;
  /** As the provider names it; shown as the notification's `provider_status`. */
  eventType: string;
  outcome: ReceiptOutcome;
  /** When it happened by the provider's clock (epoch ms), when the event says. */
  at: number | null;
  /** Why the message failed, one line for `err`; null unless failed. */
  reason: string | null;
}

const SES_FAILED = new Set(['Complaint', 'Reject', 'RenderingFailure', 'Rendering Failure']);

/** End User Messaging event types that are final (the contract's); the stack subscribes to these. */
export const SMS_VOICE_DELIVERED = ['TEXT_DELIVERED', 'VOICE_COMPLETED'] as const;
export const SMS_VOICE_FAILED = [
  'TEXT_BLOCKED',
  'TEXT_CARRIER_UNREACHABLE',
  'TEXT_INVALID',
  'TEXT_UNREACHABLE',
  'TEXT_TTL_EXPIRED',
  'TEXT_CARRIER_BLOCKED',
  'TEXT_SPAM',
  'VOICE_FAILED',
  'VOICE_NO_ANSWER',
  'VOICE_BUSY',
] as const;

const EUM_DELIVERED = new Set<string>(SMS_VOICE_DELIVERED);
const EUM_FAILED = new Set<string>(SMS_VOICE_FAILED);

/** Provider message ids are short tokens (SES: `0102…-…-000000`, End User Messaging: a UUID); anything else is not one. */
const MESSAGE_ID = /^[A-Za-z0-9][A-Za-z0-9._:+=/-]{0,254}$/;
const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9_ ]{0,63}$/;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const line = (value: string) => value.replace(/\s+/g, ' ').slice(0, 300);

function isoTime(value: unknown): number | null {
  const parsed = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(parsed) ? parsed : null;
}

function sesReason(eventType: string, event: Json): string {
  if (eventType === 'Bounce') {
    const bounce = isObject(event.bounce) ? event.bounce : {};
    const first = Array.isArray(bounce.bouncedRecipients) && isObject(bounce.bouncedRecipients[0]) ? bounce.bouncedRecipients[0] : {};
    const detail = text(first.diagnosticCode) ?? text(first.status);
    return line(
      `SES: the message bounced (${text(bounce.bounceType) ?? 'Permanent'}, ${text(bounce.bounceSubType) ?? 'General'})${detail ? `: ${detail}` : ''}`,
    );
  }
  if (eventType === 'Complaint') {
    const complaint = isObject(event.complaint) ? event.complaint : {};
    const kind = text(complaint.complaintFeedbackType);
    return line(`SES: the recipient marked the message as spam${kind ? ` (${kind})` : ''}`);
  }
  if (eventType === 'Reject') {
    const reject = isObject(event.reject) ? event.reject : {};
    return line(`SES rejected the message: ${text(reject.reason) ?? 'no reason given'}`);
  }
  const failure = isObject(event.failure) ? event.failure : {};
  return line(`SES could not render the message: ${text(failure.errorMessage) ?? 'no reason given'}`);
}

/** When SES says the event happened: the event object's own timestamp, else the message's. */
function sesTime(eventType: string, event: Json): number | null {
  const own = event[eventType === 'DeliveryDelay' ? 'deliveryDelay' : eventType.charAt(0).toLowerCase() + eventType.slice(1)];
  const mail = isObject(event.mail) ? event.mail : {};
  return (isObject(own) ? isoTime(own.timestamp) : null) ?? isoTime(mail.timestamp);
}

function sesReceipt(event: Json, mail: Json): Receipt | null {
  // Without event publishing (an identity's own notifications) SES names the type notificationType.
  const eventType = text(event.eventType) ?? text(event.notificationType);
  const messageId = text(mail.messageId);
  if (!eventType || !EVENT_TYPE.test(eventType) || !messageId || !MESSAGE_ID.test(messageId)) return null;
  const permanentBounce = eventType === 'Bounce' && isObject(event.bounce) && event.bounce.bounceType === 'Permanent';
  const outcome: ReceiptOutcome =
    eventType === 'Delivery' ? 'delivered' : permanentBounce || SES_FAILED.has(eventType) ? 'failed' : 'progress';
  return {
    provider: 'ses',
    messageId,
    eventType,
    outcome,
    at: sesTime(eventType, event),
    reason: outcome === 'failed' ? sesReason(eventType, event) : null,
  };
}

function endUserMessagingReceipt(event: Json): Receipt | null {
  const eventType = text(event.eventType);
  const messageId = text(event.messageId);
  if (!eventType || !/^(TEXT|VOICE|MEDIA)_[A-Z_]{1,60}$/.test(eventType) || !messageId || !MESSAGE_ID.test(messageId)) return null;
  const outcome: ReceiptOutcome = EUM_DELIVERED.has(eventType) ? 'delivered' : EUM_FAILED.has(eventType) ? 'failed' : 'progress';
  const at = typeof event.eventTimestamp === 'number' && Number.isFinite(event.eventTimestamp) ? event.eventTimestamp : null;
  const description = text(event.messageStatusDescription) ?? text(event.messageStatus);
  return {
    provider: 'sms-voice-v2',
    messageId,
    eventType,
    outcome,
    at,
    reason: outcome === 'failed' ? line(`End User Messaging: ${eventType}${description ? ` (${description})` : ''}`) : null,
  };
}

/** The receipt an event holds, or null when the JSON is neither an SES nor an End User Messaging delivery event. */
export function parseReceipt(event: unknown): Receipt | null {
  if (!isObject(event)) return null;
  if (isObject(event.mail)) return sesReceipt(event, event.mail);
  return endUserMessagingReceipt(event);
}
