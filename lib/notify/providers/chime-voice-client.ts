// The Amazon Chime SDK Voice client and the one command we send, apart from chime-voice.ts so that a
// function loads them with its first call (a dynamic import, its own chunk) and no other function does.
import { ChimeSDKVoiceClient, CreateSipMediaApplicationCallCommand } from '@aws-sdk/client-chime-sdk-voice';
import { clientPerEndpoint, withoutSdkLogging } from '../../sdk';
import { MESSAGING_CLIENT_DEFAULTS } from './aws-errors';

export { CreateSipMediaApplicationCallCommand };

export const chimeVoice: () => ChimeSDKVoiceClient = clientPerEndpoint('AWS_ENDPOINT_URL_CHIME_SDK_VOICE', () => {
  const client = new ChimeSDKVoiceClient(MESSAGING_CLIENT_DEFAULTS);
  withoutSdkLogging(client);
  return client;
});
