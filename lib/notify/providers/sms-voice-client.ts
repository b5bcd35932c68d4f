// The End User Messaging client and the two commands we send, apart from sms-voice.ts so that a
// function loads them with its first SMS or call (a dynamic import, its own chunk) and a function
// that sends neither never does.
import { PinpointSMSVoiceV2Client, SendTextMessageCommand, SendVoiceMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { clientPerEndpoint, withoutSdkLogging } from '../../sdk';
import { MESSAGING_CLIENT_DEFAULTS } from './aws-errors';

export { SendTextMessageCommand, SendVoiceMessageCommand };

export const smsVoice: () => PinpointSMSVoiceV2Client = clientPerEndpoint('AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2', () => {
  const client = new PinpointSMSVoiceV2Client(MESSAGING_CLIENT_DEFAULTS);
  withoutSdkLogging(client);
  return client;
});
