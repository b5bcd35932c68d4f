// SMS and voice calls through AWS End User Messaging SMS and Voice v2: SendTextMessage (enabled by
// SMS_ORIGINATION_IDENTITY) and SendVoiceMessage as text to speech (VOICE_ORIGINATION_IDENTITY),
// README "Delivering notifications". SMS are transactional (pages are time-critical); the
// notification id travels in the message's Context, which End User Messaging hands to its event
// destinations.
import type { VoiceId } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { config } from '../../config';
import type { Channel } from '../records';
import { describeAwsError } from './aws-errors';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, ProviderFactory } from './provider';
import { loadOnce } from '../../load-once';

const loadSmsVoiceClient = /* @__PURE__ */ loadOnce(() => import('./sms-voice-client'));

const PROVIDER = 'sms-voice-v2';
/** SendTextMessage's and SendVoiceMessage's bound on the body. */
const MAX_SMS = 1_600;
const MAX_VOICE = 6_000;

const context = (message: OutgoingMessage) => ({ notification_id: message.notificationId, template: message.template });

/** Sends one SMS through End User Messaging (also the replies to inbound SMS). */
export async function sendSms(message: OutgoingMessage): Promise<DeliveryResult> {
  const { SMS_ORIGINATION_IDENTITY, SMS_CONFIGURATION_SET } = config();
  try {
    const { smsVoice, SendTextMessageCommand } = await loadSmsVoiceClient();
    const answer = await smsVoice().send(
      new SendTextMessageCommand({
        DestinationPhoneNumber: message.to,
        OriginationIdentity: SMS_ORIGINATION_IDENTITY,
        MessageBody: message.message.slice(0, MAX_SMS),
        MessageType: 'TRANSACTIONAL',
        ConfigurationSetName: SMS_CONFIGURATION_SET,
        Context: context(message),
      }),
    );
    return { status: 'sent', provider: PROVIDER, provider_id: answer.MessageId ?? null, receipts: true };
  } catch (error) {
    return { status: 'failed', provider: PROVIDER, err: describeAwsError('End User Messaging (SMS)', error) };
  }
}

async function sendVoice(message: OutgoingMessage): Promise<DeliveryResult> {
  const { VOICE_ORIGINATION_IDENTITY, SMS_CONFIGURATION_SET, VOICE_ID } = config();
  try {
    const { smsVoice, SendVoiceMessageCommand } = await loadSmsVoiceClient();
    const answer = await smsVoice().send(
      new SendVoiceMessageCommand({
        DestinationPhoneNumber: message.to,
        OriginationIdentity: VOICE_ORIGINATION_IDENTITY,
        MessageBody: message.message.slice(0, MAX_VOICE),
        MessageBodyTextType: 'TEXT',
        VoiceId: VOICE_ID as VoiceId,
        ConfigurationSetName: SMS_CONFIGURATION_SET,
        Context: context(message),
      }),
    );
    return { status: 'sent', provider: PROVIDER, provider_id: answer.MessageId ?? null, receipts: true };
  } catch (error) {
    return { status: 'failed', provider: PROVIDER, err: describeAwsError('End User Messaging (voice)', error) };
  }
}

const smsProvider: NotificationProvider = { name: PROVIDER, send: sendSms };
const voiceProvider: NotificationProvider = { name: PROVIDER, send: sendVoice };

export const smsVoiceFactory: ProviderFactory = {
  name: PROVIDER,
  forChannel(channel: Channel) {
    if (channel === 'sms' && config().SMS_ORIGINATION_IDENTITY) return smsProvider;
    if (channel === 'voice' && config().VOICE_ORIGINATION_IDENTITY) return voiceProvider;
    return null;
  },
};

/** True when replies to inbound SMS can go out through End User Messaging. */
export const smsConfigured = () => Boolean(config().SMS_ORIGINATION_IDENTITY);
