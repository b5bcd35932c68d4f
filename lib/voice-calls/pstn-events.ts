// The Amazon Chime SDK PSTN audio service's wire format (AWS's "Understanding telephony events" and
// the action pages of the Chime SDK developer guide): the event a SIP media application invokes its
// function with, and the actions the function answers. The event is read with zod at the edge
// (built on first use: a cold start builds no schema); fields we do not read pass unchecked. The
// actions are plain objects built here, each with the parameters AWS documents for it.
import * as z from 'zod';
import { lazyObject, lazySchema } from '../lazy-schema';

/** The event types AWS documents; an unknown one is answered with no action (the service may add some). */
export type PstnEventType =
  | 'NEW_INBOUND_CALL'
  | 'NEW_OUTBOUND_CALL'
  | 'RINGING'
  | 'CALL_ANSWERED'
  | 'ACTION_SUCCESSFUL'
  | 'ACTION_FAILED'
  | 'ACTION_INTERRUPTED'
  | 'HANGUP'
  | 'CALL_UPDATE_REQUESTED'
  | 'INVALID_LAMBDA_RESPONSE'
  | 'DIGITS_RECEIVED';

const text = (max: number) => z.string().max(max);
/** Transaction attributes and call arguments: string keys and values, a handful of them. */
const stringMap = lazySchema(() => z.record(text(64), text(1_024)));

const participant = lazySchema(() =>
  z.object({
    CallId: text(128).min(1),
    ParticipantTag: text(16),
    To: text(64).optional(),
    From: text(64).optional(),
    Direction: text(16).optional(),
    Status: text(32).optional(),
    StartTimeInMilliseconds: text(20).optional(),
  }),
);

export const pstnEventSchema = lazyObject(() => ({
  SchemaVersion: z.literal('1.0'),
  Sequence: z.number().int().nonnegative(),
  InvocationEventType: text(64).min(1),
  ActionData: z
    .object({
      Type: text(64),
      Parameters: z.record(z.string(), z.unknown()).optional(),
      ReceivedDigits: text(64).optional(),
      ErrorType: text(128).optional(),
      ErrorMessage: text(1_024).optional(),
      RecordingDestination: z.object({ Type: text(16).optional(), BucketName: text(63), Key: text(1_024) }).optional(),
    })
    .optional(),
  CallDetails: z.object({
    TransactionId: text(128).min(1),
    TransactionAttributes: stringMap.optional(),
    AwsAccountId: text(16).optional(),
    SipMediaApplicationId: text(64).optional(),
    Participants: z.array(participant).max(10),
  }),
}));

export type PstnEvent = z.output<typeof pstnEventSchema>;
export type Participant = PstnEvent['CallDetails']['Participants'][number];

/** The arguments the event carries: CreateSipMediaApplicationCall's ArgumentsMap on a new outbound call, UpdateSipMediaApplicationCall's on an update. */
export function argumentsOf(event: PstnEvent): Record<string, string> {
  const args = event.ActionData?.Parameters?.Arguments;
  const parsed = stringMap.safeParse(args);
  return parsed.success ? parsed.data : {};
}

export const legA = (event: PstnEvent): Participant | undefined => event.CallDetails.Participants.find((p) => p.ParticipantTag === 'LEG-A');
export const legB = (event: PstnEvent): Participant | undefined => event.CallDetails.Participants.find((p) => p.ParticipantTag === 'LEG-B');

// ── actions ─────────────────────────────────────────────────────────────────────────────────────

export interface PstnAction {
  Type: 'Speak' | 'SpeakAndGetDigits' | 'CallAndBridge' | 'RecordAudio' | 'Hangup' | 'Pause';
  Parameters: Record<string, unknown>;
}

export interface PstnResponse {
  SchemaVersion: '1.0';
  Actions: PstnAction[];
  TransactionAttributes?: Record<string, string>;
}

/** Polly's voice and language for everything said (the Chime SDK's defaults, named). */
const VOICE = { Engine: 'standard', LanguageCode: 'en-US', VoiceId: 'Joanna' } as const;
/** Speak's documented bound on its text. */
const MAX_SPEECH = 1_000;

const speech = (words: string) => ({ Text: words.slice(0, MAX_SPEECH), TextType: 'text', ...VOICE });

export const speak = (callId: string, words: string): PstnAction => ({ Type: 'Speak', Parameters: { CallId: callId, ...speech(words) } });

/** Says `words` and reads one key; silence for `waitMs` ends it with ACTION_FAILED, which the caller counts as no answer. */
export function speakAndGetDigit(callId: string, words: string, waitMs = 8_000): PstnAction {
  return {
    Type: 'SpeakAndGetDigits',
    Parameters: {
      CallId: callId,
      InputDigitsRegex: '^[0-9*#]$',
      SpeechParameters: speech(words),
      FailureSpeechParameters: speech('Sorry.'),
      MinNumberOfDigits: 1,
      MaxNumberOfDigits: 1,
      TerminatorDigits: [],
      InBetweenDigitsDurationInMilliseconds: 3_000,
      // One attempt per action: what a wrong key or silence leads to is decided here, not by the service.
      Repeat: 1,
      RepeatDurationInMilliseconds: waitMs,
    },
  };
}

export const hangup = (callId?: string): PstnAction => ({
  Type: 'Hangup',
  Parameters: { ...(callId ? { CallId: callId } : {}), SipResponseCode: '0' },
});

/** Rings `phone` from `callerId` for `seconds` and bridges it to the caller when answered. */
export function callAndBridge(callerId: string, phone: string, seconds: number): PstnAction {
  return {
    Type: 'CallAndBridge',
    Parameters: {
      CallTimeoutSeconds: seconds,
      CallerIdNumber: callerId,
      Endpoints: [{ BridgeEndpointType: 'PSTN', Uri: phone }],
    },
  };
}

/** Records the caller to `bucket` under `prefix`, at most `seconds`, until # or three seconds of silence. */
export function recordAudio(callId: string, bucket: string, prefix: string, seconds: number): PstnAction {
  return {
    Type: 'RecordAudio',
    Parameters: {
      CallId: callId,
      DurationInSeconds: seconds,
      SilenceDurationInSeconds: 3,
      SilenceThreshold: 100,
      RecordingTerminators: ['#'],
      RecordingDestination: { Type: 'S3', BucketName: bucket, Prefix: prefix },
    },
  };
}

export function respond(actions: PstnAction[], attributes?: Record<string, string>): PstnResponse {
  return { SchemaVersion: '1.0', Actions: actions, ...(attributes ? { TransactionAttributes: attributes } : {}) };
}
