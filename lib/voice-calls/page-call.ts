// A page by a call the person can answer (issue 24): the SIP media application's events for a call
// placed by lib/notify/providers/chime-voice.ts. Answered, the call is the notification's receipt
// (`delivered`) and speaks the page, then reads one key: 1 acknowledges, 2 rejects, 3 repeats;
// another key or silence repeats once, then the call ends. The key is the person's answer to their
// page through the same path as a one-click link or an SMS reply (lib/page-responses), so a refused
// transition (acknowledged elsewhere meanwhile) is spoken as such, and the person hears what happened.
// Not answered (no answer, busy, failed), the call is a `failed` receipt, which fails over to the
// next channel (lib/delivery-receipts). Every step is safe to run again: the service retries an
// invocation it got no answer to, and a receipt or a transition with the same key changes nothing twice.
import { takeReceipt } from '../delivery-receipts/receive-delivery-receipt';
import type { Receipt } from '../delivery-receipts/receipt-events';
import { logger } from '../log';
import { respondToPage } from '../page-responses/respond-to-page';
import { VOICE_RESPOND_HINT, voiceText } from '../notify/content';
import { CALL_ARGUMENTS, CHIME_VOICE_PROVIDER } from '../notify/providers/chime-voice-arguments';
import type { NotificationRecord } from '../notify/records';
import { findProviderMessage, getNotification } from '../notify/store';
import { now } from '../clock';
import { argumentsOf, hangup, legA, respond, speak, speakAndGetDigit, type PstnEvent, type PstnResponse } from './pstn-events';

/** The call's state between invocations (its TransactionAttributes). */
export const PAGE_ATTRIBUTES = { kind: 'kind', misses: 'misses', plays: 'plays' } as const;
export const PAGE_KIND = 'page';

/** A key other than 1–3, or silence, is forgiven once. */
const MISSES_ALLOWED = 1;
/** Every prompt played, repeats included: a call never loops for ever. */
const MAX_PLAYS = 5;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const NOT_FOR_YOU = 'This call is no longer valid. Goodbye.';

const MENU = 'Press 1 to acknowledge. Press 2 to reject. Press 3 to hear this again.';

function pageWords(record: NotificationRecord): string {
  const page = voiceText(record.message.replace(VOICE_RESPOND_HINT, ''));
  return `${page} ${MENU}`;
}

/** Whether the event belongs to a page call (ours: the arguments or attributes name a notification). */
export function isPageCall(event: PstnEvent): boolean {
  const attributes = event.CallDetails.TransactionAttributes ?? {};
  if (attributes[PAGE_ATTRIBUTES.kind] === PAGE_KIND) return true;
  const args = argumentsOf(event);
  return CALL_ARGUMENTS.notification in args || legA(event)?.Direction === 'Outbound';
}

/**
 * The notification the call is for. The ids come from the call's attributes or arguments, else from
 * the TransactionId's pointer; the notification must then be a voice page to the number called, and
 * this call's own once its provider message id is known: a made-up or replayed event changes nothing.
 */
async function pageOf(event: PstnEvent): Promise<NotificationRecord | null> {
  const { TransactionId: transactionId } = event.CallDetails;
  const named = { ...argumentsOf(event), ...event.CallDetails.TransactionAttributes };
  let accountId: string | undefined = named[CALL_ARGUMENTS.account];
  let notificationId: string | undefined = named[CALL_ARGUMENTS.notification];
  if (!accountId || !notificationId) {
    const pointer = await findProviderMessage(CHIME_VOICE_PROVIDER, transactionId);
    accountId = pointer?.accountId;
    notificationId = pointer?.notificationId;
  }
  if (!accountId || !notificationId || !ULID.test(accountId) || !ULID.test(notificationId)) return null;
  const record = await getNotification(accountId, notificationId);
  if (!record || record.channel !== 'voice') return null;
  if (record.to !== legA(event)?.To) return null;
  if (record.provider_message_id && record.provider_message_id !== transactionId) return null;
  return record;
}

function attributesOf(record: NotificationRecord, misses: number, plays: number): Record<string, string> {
  return {
    [PAGE_ATTRIBUTES.kind]: PAGE_KIND,
    [CALL_ARGUMENTS.account]: record.account_id,
    [CALL_ARGUMENTS.notification]: record.id,
    [PAGE_ATTRIBUTES.misses]: String(misses),
    [PAGE_ATTRIBUTES.plays]: String(plays),
  };
}

const count = (event: PstnEvent, key: string) => Number(event.CallDetails.TransactionAttributes?.[key] ?? 0) || 0;

function callReceipt(transactionId: string, outcome: 'delivered' | 'failed', eventType: string, reason: string | null): Receipt {
  return { provider: CHIME_VOICE_PROVIDER, messageId: transactionId, eventType, outcome, at: now(), reason };
}

/** SIP's answer when an outbound call ended unanswered, in words for the notification's `err`. */
function whyNotAnswered(event: PstnEvent): string {
  const given = event.ActionData?.Parameters?.SipResponseCode;
  const code = typeof given === 'string' || typeof given === 'number' ? String(given) : '';
  const meaning: Record<string, string> = {
    '486': 'busy',
    '600': 'busy',
    '480': 'no answer',
    '408': 'no answer',
    '487': 'no answer',
    '603': 'declined',
    '404': 'number not found',
  };
  return `Amazon Chime SDK: the call was not answered (${meaning[code] ?? 'failed'}${code ? `, SIP ${code}` : ''})`;
}

export async function answerPageCall(event: PstnEvent): Promise<PstnResponse> {
  const type = event.InvocationEventType;
  const callId = legA(event)?.CallId;
  // The service ignores what the function answers to these: nothing to look up.
  if (type === 'NEW_OUTBOUND_CALL' || type === 'RINGING' || type === 'CALL_UPDATE_REQUESTED') return respond([]);
  const record = await pageOf(event);
  if (!record) {
    logger.warn('voice call: the event names no page of this number', { transactionId: event.CallDetails.TransactionId, type });
    return respond(callId && type !== 'HANGUP' ? [speak(callId, NOT_FOR_YOU), hangup(callId)] : []);
  }
  const transactionId = event.CallDetails.TransactionId;
  switch (type) {
    case 'CALL_ANSWERED': {
      // Answered twice (the service retried): the first receipt stands, the page is spoken again.
      await takeReceipt(record, callReceipt(transactionId, 'delivered', 'CALL_ANSWERED', null));
      if (!callId) return respond([]);
      if (!record.alert_id) return respond([speak(callId, voiceText(record.message)), hangup(callId)]);
      return respond([speakAndGetDigit(callId, pageWords(record))], attributesOf(record, 0, 1));
    }
    case 'HANGUP': {
      // Unanswered, the call failed; answered, its receipt was written already and this changes nothing.
      if (record.status !== 'delivered') await takeReceipt(record, callReceipt(transactionId, 'failed', 'HANGUP', whyNotAnswered(event)));
      return respond([]);
    }
    case 'ACTION_SUCCESSFUL':
    case 'ACTION_FAILED': {
      if (!callId || event.ActionData?.Type !== 'SpeakAndGetDigits') return respond([]);
      const digit = type === 'ACTION_SUCCESSFUL' ? (event.ActionData.ReceivedDigits ?? '') : '';
      return answerKey(event, record, callId, digit);
    }
    default:
      if (type === 'INVALID_LAMBDA_RESPONSE')
        logger.error('voice call: the service refused our answer', { transactionId, error: event.ActionData?.ErrorMessage });
      return respond(callId ? [hangup(callId)] : []);
  }
}

async function answerKey(event: PstnEvent, record: NotificationRecord, callId: string, digit: string): Promise<PstnResponse> {
  const misses = count(event, PAGE_ATTRIBUTES.misses);
  const plays = count(event, PAGE_ATTRIBUTES.plays);
  if (digit === '1' || digit === '2') {
    const view = await respondToPage({
      accountId: record.account_id,
      alertId: record.alert_id!,
      workflowId: record.workflow_id ?? 'none',
      accountUserId: record.account_user_id ?? '',
      action: digit === '1' ? 'acknowledge' : 'reject',
      // The service's retry of this invocation is the same request.
      idempotencyKey: `chime:${event.CallDetails.TransactionId}:${event.Sequence}`,
    });
    logger.info('voice call: key pressed', { digit, alertId: record.alert_id, status: view.status });
    return respond([speak(callId, voiceText(`${view.title}. ${view.detail} Goodbye.`)), hangup(callId)]);
  }
  if (plays >= MAX_PLAYS) return respond([speak(callId, 'Goodbye.'), hangup(callId)]);
  if (digit === '3') return respond([speakAndGetDigit(callId, pageWords(record))], attributesOf(record, misses, plays + 1));
  if (misses >= MISSES_ALLOWED) return respond([speak(callId, 'No answer was given. Goodbye.'), hangup(callId)]);
  const preface = digit ? 'That key does nothing here.' : 'I did not hear a key.';
  return respond([speakAndGetDigit(callId, `${preface} ${pageWords(record)}`)], attributesOf(record, misses + 1, plays + 1));
}
