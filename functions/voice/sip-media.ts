// Entry point: the Amazon Chime SDK SIP media application invokes this function directly (not through
// API Gateway) with each PSTN audio event of its calls, and runs the actions it answers. Flow: the
// event → lib/voice-calls/answer-call-event (pages you can answer, live call routing) → actions.
import { flushedAtEnd } from '../../lib/metrics';
import { answerCallEvent } from '../../lib/voice-calls/answer-call-event';

export const handler = flushedAtEnd((event: unknown) => answerCallEvent(event));
