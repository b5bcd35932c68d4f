// The one interface every delivery provider implements (docs/api.md#escalation-and-notifications): the local outbox here, and
// deployed e-mail (SES), SMS and voice (AWS End User Messaging) and push (Web Push) beside it, and
// Slack direct messages wherever the account connected a workspace. A
// provider gets the whole message, secrets included, and answers what became of it; it never
// writes the notification record (lib/notify/send.ts does, before and after the call).
import type { SlackMessage } from '../content';
import type { Channel } from '../records';

export interface OutgoingMessage {
  /** The notification this message is (its id doubles as an idempotency key for providers that take one). */
  notificationId: string;
  accountId: string;
  accountUserId: string | null;
  channel: Channel;
  /** E-mail address, phone number (E.164) or push subscription owner (the account user id). */
  to: string;
  subject: string | null;
  /** The full text, which may carry a secret (a new user's password): never stored as it is. */
  message: string;
  /** E-mail only: the HTML part. */
  html: string | null;
  template: string;
  /** One-click response links the message carries (push actions, e-mail buttons). */
  links?: { acknowledge: string | null; reject: string | null };
  /** Slack only: the message as Block Kit blocks (lib/notify/content/slack-message.ts); absent, the text goes alone. */
  slack?: SlackMessage | null;
}

export interface DeliveryResult {
  /** sent: the provider accepted it; delivered: it confirmed delivery; failed: it did not go out. */
  status: 'sent' | 'delivered' | 'failed';
  /** The provider's name, as recorded in the notification (`outbox`, `ses`, `sms-voice-v2`, …). */
  provider: string;
  /** The provider's id of the message (earlier `thirdparty_id`). */
  provider_id?: string | null;
  /** Why it failed (recorded in `err`). */
  err?: string | null;
  /** What the provider charged, in US dollars, when it says. */
  cost?: number | null;
}

export interface NotificationProvider {
  readonly name: string;
  send(message: OutgoingMessage): Promise<DeliveryResult>;
}

/**
 * A provider of some channels, enabled by configuration: `forChannel` answers the provider for a
 * channel when this factory is configured for it, else null (the next factory is asked).
 */
export interface ProviderFactory {
  readonly name: string;
  forChannel(channel: Channel): NotificationProvider | null;
}
