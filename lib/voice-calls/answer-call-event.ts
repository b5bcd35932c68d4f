// The SIP media application's one entry (functions/voice/sip-media.ts): the event is checked at the
// edge, then belongs to a page call (lib/voice-calls/page-call.ts) or to a live call of a `live_call`
// integration (./live-call.ts). Chime waits a few seconds for the answer: each event does a few reads
// and at most a transition. An event that cannot be read, or an error, ends the call politely instead
// of leaving the caller in silence.
import { logger } from '../log';
import { answerPageCall, isPageCall } from './page-call';
import { hangup, legA, pstnEventSchema, respond, speak, type PstnResponse } from './pstn-events';
import { loadOnce } from '../load-once';

const loadLiveCall = /* @__PURE__ */ loadOnce(() => import('./live-call'));

export async function answerCallEvent(raw: unknown): Promise<PstnResponse> {
  const parsed = pstnEventSchema.safeParse(raw);
  if (!parsed.success) {
    logger.error('voice call: an event that is not a PSTN audio event', {
      issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
    });
    return respond([]);
  }
  const event = parsed.data;
  try {
    if (isPageCall(event)) return await answerPageCall(event);
    const { answerLiveCall } = await loadLiveCall();
    return await answerLiveCall(event);
  } catch (error) {
    logger.error('voice call: the event failed', { type: event.InvocationEventType, error: error as Error });
    const callId = legA(event)?.CallId;
    if (!callId || event.InvocationEventType === 'HANGUP') return respond([]);
    return respond([speak(callId, 'Sorry, something went wrong. Goodbye.'), hangup(callId)]);
  }
}
