// PSTN audio events as the Amazon Chime SDK's SIP media application invokes its function with them
// (the shapes of AWS's "Understanding telephony events", "Making an outbound call" and the action
// pages), for replaying a call's sequence into the real handler (functions/voice/sip-media.ts).
import { handler } from '../../functions/voice/sip-media';
import type { PstnResponse } from '../../lib/voice-calls/pstn-events';

export const AWS_ACCOUNT = '123456789012';
export const SIP_MEDIA_APPLICATION_ID = 'a1b2c3d4-5678-90ab-cdef-EXAMPLE11111';

interface Leg {
  tag: 'LEG-A' | 'LEG-B';
  callId: string;
  to: string;
  from: string;
  direction: 'Inbound' | 'Outbound';
  status?: 'Connected' | 'Disconnected';
  /** When the leg started (epoch ms): the same in every event of the call. */
  startedAt?: number;
}

/** One call: its transaction, its legs, the sequence number, and what the function last asked to remember. */
export class ReplayedCall {
  sequence = 0;
  attributes: Record<string, string> | undefined;
  readonly legs: Leg[];

  constructor(
    readonly transactionId: string,
    legA: Omit<Leg, 'tag'>,
  ) {
    this.legs = [{ tag: 'LEG-A', startedAt: Date.now(), ...legA }];
  }

  addLegB(leg: Omit<Leg, 'tag'>): void {
    this.legs.splice(1, 1, { tag: 'LEG-B', startedAt: Date.now(), ...leg });
  }

  /** The event of `type`, numbered next (or again with `{ again: true }`: the service's retry of the same invocation). */
  event(type: string, actionData?: Record<string, unknown>, options: { again?: boolean } = {}): Record<string, unknown> {
    if (!options.again) this.sequence += 1;
    return {
      SchemaVersion: '1.0',
      Sequence: this.sequence,
      InvocationEventType: type,
      ...(actionData ? { ActionData: actionData } : {}),
      CallDetails: {
        TransactionId: this.transactionId,
        ...(this.attributes ? { TransactionAttributes: this.attributes } : {}),
        AwsAccountId: AWS_ACCOUNT,
        AwsRegion: 'us-east-1',
        SipMediaApplicationId: SIP_MEDIA_APPLICATION_ID,
        Participants: this.legs.map((leg) => ({
          CallId: leg.callId,
          ParticipantTag: leg.tag,
          To: leg.to,
          From: leg.from,
          Direction: leg.direction,
          StartTimeInMilliseconds: String(leg.startedAt),
          Status: leg.status ?? 'Connected',
        })),
      },
    };
  }

  /** Invokes the handler with the event, as the service does, and keeps the attributes it answers. */
  async send(type: string, actionData?: Record<string, unknown>, options: { again?: boolean } = {}): Promise<PstnResponse> {
    const response = await handler(this.event(type, actionData, options));
    if (response.TransactionAttributes) this.attributes = response.TransactionAttributes;
    return response;
  }

  /** The SpeakAndGetDigits action's outcome: the key read, or none (ACTION_FAILED, as for silence). */
  pressed(digits: string | null, parameters: Record<string, unknown> = {}, options: { again?: boolean } = {}): Promise<PstnResponse> {
    const callId = this.legs[0].callId;
    if (digits === null)
      return this.send(
        'ACTION_FAILED',
        {
          Type: 'SpeakAndGetDigits',
          Parameters: { CallId: callId, ...parameters },
          ErrorType: 'InvalidDigitsReceived',
          ErrorMessage: 'No digits received',
        },
        options,
      );
    return this.send(
      'ACTION_SUCCESSFUL',
      { Type: 'SpeakAndGetDigits', Parameters: { CallId: callId, ...parameters }, ReceivedDigits: digits },
      options,
    );
  }

  hangup(sipResponseCode: string, tag: 'LEG-A' | 'LEG-B' = 'LEG-A'): Promise<PstnResponse> {
    const leg = this.legs.find((l) => l.tag === tag)!;
    leg.status = 'Disconnected';
    return this.send('HANGUP', {
      Type: 'Hangup',
      Parameters: { SipResponseCode: sipResponseCode, CallId: leg.callId, ParticipantTag: tag },
    });
  }
}

/** The actions' types and what each says, for assertions. */
export function said(response: PstnResponse): { type: string; text?: string }[] {
  return response.Actions.map((action) => {
    const p = action.Parameters as { Text?: string; SpeechParameters?: { Text?: string } };
    const text = p.Text ?? p.SpeechParameters?.Text;
    return text === undefined ? { type: action.Type } : { type: action.Type, text };
  });
}
