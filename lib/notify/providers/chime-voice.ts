// Pages by a call the person can answer (issue 24, README "Voice you can answer"): the Amazon Chime
// SDK PSTN audio service places the call (CreateSipMediaApplicationCall) from the stack's number, and
// the SIP media application's function (functions/voice/sip-media.ts) speaks the page and reads the
// key. The call's arguments name the notification, so the function finds it without a lookup; its
// TransactionId is the provider's message id, whose pointer (written by lib/notify/send.ts before the
// outcome) names the notification too. What became of the call (answered, no answer, busy) comes back
// from the function as the notification's receipt, not from the service: `receipts: true`.
import { config } from '../../config';
import type { Channel } from '../records';
import { describeAwsError } from './aws-errors';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, ProviderFactory } from './provider';

export const CHIME_VOICE_PROVIDER = 'chime-voice';

/** The keys of the call's ArgumentsMap (also its TransactionAttributes once answered). */
export const CALL_ARGUMENTS = { account: 'account_id', notification: 'notification_id' } as const;

async function placeCall(message: OutgoingMessage): Promise<DeliveryResult> {
  const { VOICE_SIP_MEDIA_APPLICATION_ID, VOICE_FROM_NUMBER } = config();
  try {
    const { chimeVoice, CreateSipMediaApplicationCallCommand } = await import('./chime-voice-client');
    const answer = await chimeVoice().send(
      new CreateSipMediaApplicationCallCommand({
        SipMediaApplicationId: VOICE_SIP_MEDIA_APPLICATION_ID,
        FromPhoneNumber: VOICE_FROM_NUMBER,
        ToPhoneNumber: message.to,
        ArgumentsMap: { [CALL_ARGUMENTS.account]: message.accountId, [CALL_ARGUMENTS.notification]: message.notificationId },
      }),
    );
    const transactionId = answer.SipMediaApplicationCall?.TransactionId ?? null;
    if (!transactionId)
      return { status: 'failed', provider: CHIME_VOICE_PROVIDER, err: 'Amazon Chime SDK answered without a TransactionId' };
    return { status: 'sent', provider: CHIME_VOICE_PROVIDER, provider_id: transactionId, receipts: true };
  } catch (error) {
    return { status: 'failed', provider: CHIME_VOICE_PROVIDER, err: describeAwsError('Amazon Chime SDK (voice)', error) };
  }
}

const provider: NotificationProvider = { name: CHIME_VOICE_PROVIDER, send: placeCall };

/** True when the deployment answers calls with the Chime SDK (both settings). */
export function chimeVoiceConfigured(): boolean {
  const { VOICE_SIP_MEDIA_APPLICATION_ID, VOICE_FROM_NUMBER } = config();
  return Boolean(VOICE_SIP_MEDIA_APPLICATION_ID && VOICE_FROM_NUMBER);
}

export const chimeVoiceFactory: ProviderFactory = {
  name: CHIME_VOICE_PROVIDER,
  forChannel: (channel: Channel) => (channel === 'voice' && chimeVoiceConfigured() ? provider : null),
};
