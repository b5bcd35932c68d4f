// The stored notification (docs/api.md#escalation-and-notifications, api-earlier.md "Notification"): one message to one person on
// one channel. It is written before any provider is called: `sending` (the conditional put claims
// it) when it goes out at once, `queued` while it waits (storm protection) until a conditional move
// to `sending`; then `sent`/`delivered`/`failed` with the provider's answer. A crash between the
// claim and the answer leaves `sending`, which recovery turns into `failed` ("outcome unknown")
// instead of paging the person a second time. Text is stored redacted.
import type { Entity } from '../store/entity-store';

export const CHANNELS = ['push', 'email', 'sms', 'voice', 'slack'] as const;
export type Channel = (typeof CHANNELS)[number];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

/** `sending` is internal: the representations show it as `queued` (nothing is known yet). */
export type NotificationStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed';

/** What the provider (or the service) says about the message beyond its status. */
export type ProviderStatus =
  /** The provider accepted it. */
  | 'accepted'
  /** The provider confirmed delivery. */
  | 'delivered'
  /** The provider refused it, or no provider is configured for the channel. */
  | 'failed'
  /** Carried inside another notification's message (storm protection): `group_id` names it. */
  | 'bundled'
  /** Waiting for the person's rate limit window (storm protection). */
  | 'waiting'
  /** Not sent: its page was answered (acknowledged, resolved, timed out) before it could go out. */
  | 'cancelled'
  /** A crash between the provider call and its answer: never sent again. */
  | 'unknown';

/** The event type of the last delivery receipt (SES event publishing, End User Messaging events), as the provider names it. */
export type ReceiptEventType = string;

export interface NotificationRecord extends Entity {
  id: string;
  account_id: string;
  account_user_id: string | null;
  /** The person (user ULID), shown as `user_id: usr_…` on the earlier interface. */
  user_id: string | null;
  alert_id: string | null;
  broadcast_id: string | null;
  workflow_id: string | null;
  /** The notification whose message carried this one (a storm bundle), else null. */
  group_id: string | null;
  channel: Channel;
  /** The provider that sent it (null until one is chosen). */
  provider: string | null;
  /** The provider's id of the message (earlier `thirdparty_id`): delivery receipts name it. */
  provider_message_id: string | null;
  /** The provider's last word on it: our own states below, or a receipt's event type (`Delivery`, `TEXT_DELIVERED`, …). */
  provider_status: ProviderStatus | (ReceiptEventType & {}) | null;
  template: string;
  to: string;
  from: string;
  subject: string | null;
  message: string;
  status: NotificationStatus;
  err: string[];
  cost: number;
  sent_at: string | null;
  delivered_at: string | null;
  /** The effect that made it (escalation's idempotency key), for support. */
  source_key: string | null;
  /**
   * The call that recorded it (a fresh id per sendNotification): a put whose answer was lost, retried
   * by the SDK, finds this and knows the record is its own, not a crashed sender's. Not shown.
   */
  insert_token?: string;
  created_at: string;
  updated_at: string;
  version: number;
}
