// Inbound SMS from AWS End User Messaging's two-way SMS: it publishes each message to an SNS topic
// (SMS_INBOUND_TOPIC_ARN), which delivers it here over HTTPS (POST /public/sms/inbound). Nothing is
// believed before the SNS signature verifies (lib/integrations/sns, the check the ingest side uses)
// and the topic is ours: anyone can subscribe this address to a topic of their own. A
// SubscriptionConfirmation of our topic is confirmed; a Notification carries End User Messaging's
// JSON ({originationNumber, destinationNumber, messageBody, …}) and is answered as a reply to a page.
import { config } from '../config';
import { Forbidden, HttpError, NotFound } from '../http/errors';
import { checkSnsMessage, confirmSnsSubscription, type SnsCheck } from '../integrations/sns/check-sns-message';
import { SnsUnavailable } from '../integrations/sns/sns-http';
import { logger } from '../log';
import { answerSmsReply, type InboundSms, type SmsReplyOutcome } from './answer-sms-reply';

export interface InboundSmsResult {
  received: 'subscription_confirmation' | 'unsubscribe_confirmation' | 'sms';
  confirmed?: boolean;
  outcome?: SmsReplyOutcome | 'ignored';
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** The message's id: End User Messaging's own, else the SNS notification's (SNS delivers a message
 * again with the same id when our answer did not come). */
function smsOf(message: unknown, notificationId: unknown): InboundSms | null {
  if (typeof message !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return null;
  }
  const sms = parsed as { originationNumber?: unknown; messageBody?: unknown; inboundMessageId?: unknown } | null;
  if (typeof sms?.originationNumber !== 'string' || !E164.test(sms.originationNumber)) return null;
  const id = typeof sms.inboundMessageId === 'string' ? sms.inboundMessageId : typeof notificationId === 'string' ? notificationId : '';
  return {
    from: sms.originationNumber,
    body: typeof sms.messageBody === 'string' ? sms.messageBody.slice(0, 1_600) : '',
    messageId: id.length > 0 && id.length <= 128 ? id : undefined,
  };
}

/** 503: SNS delivers the message again later. */
const unavailable = () => new HttpError(503, 'the SNS signing certificate could not be fetched; try again later');

export async function receiveInboundSms(rawBody: string): Promise<InboundSmsResult> {
  const topicArn = config().SMS_INBOUND_TOPIC_ARN;
  if (!topicArn) throw new NotFound('Inbound SMS are not configured (SMS_INBOUND_TOPIC_ARN)');
  // Replies act on alerts: a message whose signature could not be checked is never believed.
  let check: SnsCheck;
  try {
    check = await checkSnsMessage(rawBody, { signatureRequired: true });
  } catch (error) {
    if (error instanceof SnsUnavailable) throw unavailable();
    throw error;
  }
  if (check.kind === 'not_sns') throw new Forbidden('not an SNS message');
  if (check.kind === 'rejected') {
    // An unreachable certificate is worth a retry (SNS delivers again); a bad signature is not.
    if (check.reason.endsWith('(SNS_SIGNATURE_REQUIRED)')) throw unavailable();
    logger.warn('inbound sms: SNS message rejected', { reason: check.reason });
    throw new Forbidden(`SNS message rejected: ${check.reason}`);
  }
  const { message } = check;
  if (message.TopicArn !== topicArn) {
    logger.warn('inbound sms: message of another topic', { topicArn: String(message.TopicArn) });
    throw new Forbidden('the SNS message is not from the inbound SMS topic');
  }
  if (message.Type === 'SubscriptionConfirmation') {
    const confirmation = await confirmSnsSubscription(message);
    return { received: 'subscription_confirmation', confirmed: confirmation.subscription_confirmed === true };
  }
  if (message.Type === 'UnsubscribeConfirmation') return { received: 'unsubscribe_confirmation' };
  const sms = smsOf(message.Message, message.MessageId);
  if (!sms) {
    logger.warn('inbound sms: the notification is not an End User Messaging inbound message');
    return { received: 'sms', outcome: 'ignored' };
  }
  const answered = await answerSmsReply(sms);
  return { received: 'sms', outcome: answered.outcome };
}
