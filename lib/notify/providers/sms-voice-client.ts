// The End User Messaging client and the two commands we send, apart from sms-voice.ts so that a
// function loads them with its first SMS or call (a dynamic import, its own chunk) and a function
// that sends neither never does.
import { PinpointSMSVoiceV2Client, SendTextMessageCommand, SendVoiceMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { withoutSdkLogging } from '../../sdk';
import { MESSAGING_CLIENT_DEFAULTS } from './aws-errors';

export { SendTextMessageCommand, SendVoiceMessageCommand };

let client: PinpointSMSVoiceV2Client | undefined;
let clientEndpoint: string | undefined;

export function smsVoice(): PinpointSMSVoiceV2Client {
  const endpoint = process.env.AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2 ?? process.env.AWS_ENDPOINT_URL;
  if (!client || clientEndpoint !== endpoint) {
    client?.destroy();
    client = new PinpointSMSVoiceV2Client(MESSAGING_CLIENT_DEFAULTS);
    withoutSdkLogging(client);
    clientEndpoint = endpoint;
  }
  return client;
}
