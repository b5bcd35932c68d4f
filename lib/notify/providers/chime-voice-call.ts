// The call of a voice page (./chime-voice.ts): CreateSipMediaApplicationCall with the notification
// named in its arguments, so the SIP media function finds it without a lookup. Its TransactionId is the
// provider's message id, whose pointer (written by lib/notify/send.ts before the outcome) names the
// notification too; `receipts: true`, since the function reports the call's outcome.
import { config } from '../../config';
import { describeAwsError } from './aws-errors';
import { CALL_ARGUMENTS, CHIME_VOICE_PROVIDER } from './chime-voice-arguments';
import { chimeVoice, CreateSipMediaApplicationCallCommand } from './chime-voice-client';
import type { DeliveryResult, OutgoingMessage } from './provider';

export async function placeCall(message: OutgoingMessage): Promise<DeliveryResult> {
  const { VOICE_SIP_MEDIA_APPLICATION_ID, VOICE_FROM_NUMBER } = config();
  try {
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
