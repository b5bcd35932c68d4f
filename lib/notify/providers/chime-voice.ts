// Pages by a call the person can answer (issue 24, README "Voice you can answer"): the Amazon Chime
// SDK PSTN audio service places the call from the stack's number (./chime-voice-call.ts, loaded with
// the first call), and the SIP media application's function (functions/voice/sip-media.ts) speaks the
// page and reads the key. What became of the call comes back from that function as the notification's
// receipt, not from the service.
import { config } from '../../config';
import type { Channel } from '../records';
import { CHIME_VOICE_PROVIDER } from './chime-voice-arguments';
import type { NotificationProvider, ProviderFactory } from './provider';
import { loadOnce } from '../../load-once';

const loadChimeVoiceCall = /* @__PURE__ */ loadOnce(() => import('./chime-voice-call'));

const provider: NotificationProvider = {
  name: CHIME_VOICE_PROVIDER,
  send: async (message) => (await loadChimeVoiceCall()).placeCall(message),
};

export const chimeVoiceFactory: ProviderFactory = {
  name: CHIME_VOICE_PROVIDER,
  // Both settings, or voice stays End User Messaging's.
  forChannel: (channel: Channel) =>
    channel === 'voice' && config().VOICE_SIP_MEDIA_APPLICATION_ID && config().VOICE_FROM_NUMBER ? provider : null,
};
