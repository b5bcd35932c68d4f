// E-mail through Amazon SES (API v2 SendEmail), enabled by SES_FROM_ADDRESS (README "Delivering
// notifications"). The text and HTML parts go out as SES builds them; the notification id travels
// as a message tag, so SES events (a configuration set's destinations) name the notification.
import { config } from '../../config';
import type { Channel } from '../records';
import { describeAwsError } from './aws-errors';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, ProviderFactory } from './provider';
import { loadOnce } from '../../load-once';

const loadSesClient = /* @__PURE__ */ loadOnce(() => import('./ses-client'));

const DEFAULT_SUBJECT = 'On-call notification';

const provider: NotificationProvider = {
  name: 'ses',
  async send(message: OutgoingMessage): Promise<DeliveryResult> {
    const { SES_FROM_ADDRESS, SES_CONFIGURATION_SET } = config();
    const utf8 = (data: string) => ({ Data: data, Charset: 'UTF-8' });
    try {
      const { ses, SendEmailCommand } = await loadSesClient();
      const answer = await ses().send(
        new SendEmailCommand({
          FromEmailAddress: SES_FROM_ADDRESS,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              // A subject is one line.
              Subject: utf8((message.subject ?? DEFAULT_SUBJECT).replace(/[\r\n]+/g, ' ').slice(0, 900)),
              Body: { Text: utf8(message.message), ...(message.html ? { Html: utf8(message.html) } : {}) },
            },
          },
          ConfigurationSetName: SES_CONFIGURATION_SET,
          EmailTags: [
            { Name: 'notification_id', Value: message.notificationId },
            { Name: 'template', Value: message.template.replace(/[^A-Za-z0-9_-]/g, '_') },
          ],
        }),
      );
      return { status: 'sent', provider: 'ses', provider_id: answer.MessageId ?? null, receipts: true };
    } catch (error) {
      return { status: 'failed', provider: 'ses', err: describeAwsError('SES', error) };
    }
  },
};

export const sesFactory: ProviderFactory = {
  name: 'ses',
  forChannel(channel: Channel) {
    return channel === 'email' && config().SES_FROM_ADDRESS ? provider : null;
  },
};
