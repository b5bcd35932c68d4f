// Messages to one person that are not pages (a new user's welcome with their generated password):
// recorded as a notification holding the redacted text, and sent through the channel's provider
// (locally the outbox, lib/notify/providers/outbox.ts).
import type { Channel, NotificationRecord } from './records';
import { sendNotification } from './send';

export interface OutboxMessage {
  accountId: string;
  userId: string | null;
  accountUserId?: string | null;
  channel: Channel;
  to: string;
  subject: string;
  template: string;
  /** The full text, which may carry a secret (a new user's password). */
  message: string;
  /** The text safe to store and show. */
  redacted: string;
}

export async function deliver(message: OutboxMessage): Promise<NotificationRecord> {
  return sendNotification({
    accountId: message.accountId,
    accountUserId: message.accountUserId ?? null,
    userId: message.userId,
    channel: message.channel,
    to: message.to,
    template: message.template,
    subject: message.subject,
    message: message.message,
    storedMessage: message.redacted,
  });
}
