// Which provider delivers a channel, by configuration: the first factory configured for it. The
// deployed providers (SES, End User Messaging, Web Push) come before the local outbox, so a
// deployment's configuration wins; Slack is always Slack's (each account connects its own workspace,
// and the provider records an account without one as failed); when none is configured the outbox delivers locally; a channel nobody is configured for gets the unconfigured provider, which records the
// message as failed with the reason, and the page still counts as sent for escalation (docs/api.md#escalation-and-notifications).
import type { Channel } from '../records';
import { chimeVoiceFactory } from './chime-voice';
import { outboxFactory } from './outbox';
import type { DeliveryResult, NotificationProvider, ProviderFactory } from './provider';
import { sesFactory } from './ses';
import { slackFactory } from './slack';
import { smsVoiceFactory } from './sms-voice';
import { webPushFactory } from './web-push';

/** Asked in order; the first that answers a provider for the channel delivers it (a call you can answer before End User Messaging's spoken one). */
export const PROVIDERS: ProviderFactory[] = [sesFactory, chimeVoiceFactory, smsVoiceFactory, webPushFactory, slackFactory, outboxFactory];

const HOW_TO: Record<Channel, string> = {
  email: 'configure the e-mail provider (SES) or OUTBOX for local delivery',
  sms: 'configure the SMS provider (AWS End User Messaging) or OUTBOX for local delivery',
  voice: 'configure the voice provider (Amazon Chime SDK or AWS End User Messaging) or OUTBOX for local delivery',
  push: 'configure Web Push or OUTBOX for local delivery',
  slack: 'connect a Slack workspace (PUT /api/v4/slack)',
};

function unconfigured(channel: Channel): NotificationProvider {
  return {
    name: 'none',
    send(): Promise<DeliveryResult> {
      return Promise.resolve({ status: 'failed', provider: 'none', err: `no ${channel} provider is configured: ${HOW_TO[channel]}` });
    },
  };
}

export function providerFor(channel: Channel): NotificationProvider {
  for (const factory of PROVIDERS) {
    const provider = factory.forChannel(channel);
    if (provider) return provider;
  }
  return unconfigured(channel);
}
