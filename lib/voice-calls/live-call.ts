// Live call routing (issue 24): placeholder until the live_call integration lands.
import { hangup, legA, respond, speak, type PstnEvent, type PstnResponse } from './pstn-events';

export function answerLiveCall(event: PstnEvent): Promise<PstnResponse> {
  const callId = legA(event)?.CallId;
  return Promise.resolve(
    respond(
      callId && event.InvocationEventType === 'NEW_INBOUND_CALL'
        ? [speak(callId, 'This number is not in service. Goodbye.'), hangup(callId)]
        : [],
    ),
  );
}
