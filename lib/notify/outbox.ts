// Where messages to people go. Locally (OUTBOX=console) they are printed to the console, which is
// the only place a generated password ever appears (OUTBOX=memory keeps them for tests); deployed
// (OUTBOX=log) only the fact that a
// message went out is logged, never its secret parts. Every message is also recorded as a
// notification object whose text is the redacted version.
import { config } from '../config';
import { newId } from '../ids';
import { logger } from '../log';
import type { Channel, NotificationRecord } from './records';
import { insertNotification } from './store';

export interface OutboxMessage {
  accountId: string;
  userId: string | null;
  channel: Channel;
  to: string;
  subject: string;
  template: string;
  /** The full text, which may carry a secret (a new user's password). */
  message: string;
  /** The text safe to store and show. */
  redacted: string;
}

const memory: OutboxMessage[] = [];

/** Messages kept by OUTBOX=memory (tests read what a person would have received). */
export function outboxMessages(): readonly OutboxMessage[] {
  return memory;
}

export async function deliver(message: OutboxMessage): Promise<NotificationRecord> {
  const mode = config().OUTBOX;
  if (mode === 'memory') memory.push(message);
  else if (mode === 'console') {
    process.stdout.write(`\n── outbox: ${message.channel} to ${message.to} ──\n${message.subject}\n\n${message.message}\n────\n`);
  } else if (mode === 'log') {
    logger.info('outbox message', { channel: message.channel, to: message.to, template: message.template });
  }
  const now = new Date();
  const record: NotificationRecord = {
    id: newId(),
    account_id: message.accountId,
    user_id: message.userId,
    channel: message.channel,
    provider: `outbox:${mode}`,
    template: message.template,
    to: message.to,
    from: 'oncall',
    direction: 'OUTGOING',
    subject: message.subject,
    message: message.redacted,
    status: 'sent',
    sent: Math.floor(now.getTime() / 1000),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    version: 1,
  };
  await insertNotification(record);
  return record;
}
