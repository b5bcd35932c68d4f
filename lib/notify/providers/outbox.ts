// The local outbox provider (OUTBOX=console|memory|log): every channel, nothing leaves the machine.
// console prints the message (the only place a new user's generated password ever appears
// locally), memory keeps it where lib/dependencies.ts says (tests read what a person would have
// received), log writes only the fact that a message went out.
import { config } from '../../config';
import { dependencies } from '../../dependencies';
import { logger } from '../../log';
import type { Channel } from '../records';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, ProviderFactory } from './provider';

const provider: NotificationProvider = {
  name: 'outbox',
  // A provider reports a failure by rejecting (lib/notify/send.ts); async makes a throw here (config, the
  // memory outbox) a rejection like a real provider's, though nothing is awaited.
  // eslint-disable-next-line @typescript-eslint/require-await
  async send(message: OutgoingMessage): Promise<DeliveryResult> {
    const mode = config().OUTBOX;
    if (mode === 'memory') dependencies().memoryOutbox.push(message);
    else if (mode === 'console') {
      const subject = message.subject ? `${message.subject}\n\n` : '';
      process.stdout.write(
        `\n── outbox: ${message.channel} to ${message.to} (${message.template}) ──\n${subject}${message.message}\n────\n`,
      );
    } else {
      logger.info('outbox message', {
        channel: message.channel,
        to: message.to,
        template: message.template,
        notificationId: message.notificationId,
      });
    }
    return { status: 'sent', provider: 'outbox', provider_id: message.notificationId, cost: 0 };
  },
};

export const outboxFactory: ProviderFactory = {
  name: 'outbox',
  forChannel(_channel: Channel) {
    return config().OUTBOX === 'none' ? null : provider;
  },
};
