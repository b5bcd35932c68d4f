// An SNS message delivered over HTTPS to one of our own public routes (inbound SMS, delivery
// receipts), checked before anything in it is believed: the signature (check-sns-message.ts, the
// check the inbound integrations use) and the topic, since anyone can subscribe our address to a
// topic of their own. The topic's SubscriptionConfirmation is confirmed here; a Notification is
// handed back for its route to read.
import { Forbidden, HttpError, PayloadTooLarge } from '../../http/errors';
import { MAX_BODY_BYTES } from '../../http/request';
import { logger } from '../../log';
import { checkSnsMessage, confirmSnsSubscription, type SnsCheck } from './check-sns-message';
import { SnsUnavailable } from './sns-http';
import type { SnsMessage } from './verify-signature';

export type TopicMessage =
  | { type: 'subscription_confirmation'; confirmed: boolean }
  | { type: 'unsubscribe_confirmation' }
  /** `verified` false: the signing certificate could not be reached and SNS_SIGNATURE_REQUIRED is off. */
  | { type: 'notification'; message: SnsMessage; verified: boolean };

export interface TopicMessageOptions {
  /** Only messages of this topic are read. */
  topicArn: string;
  /** A certificate that cannot be reached refuses the message (503: SNS delivers it again later). */
  signatureRequired: boolean;
  /** What the route receives, for the logs and the refusals ("inbound SMS", "delivery receipts"). */
  what: string;
}

/** 503: SNS delivers the message again later. */
const unavailable = () => new HttpError(503, 'the SNS signing certificate could not be fetched; try again later');

/** Throws Forbidden (403) for a message that is not SNS's, not signed right or not of the topic; 413 over 256 KiB; 503 when the certificate cannot be had now. */
export async function receiveTopicMessage(rawBody: string, options: TopicMessageOptions): Promise<TopicMessage> {
  // SNS messages are at most 256 KiB, as every body the service reads.
  if (Buffer.byteLength(rawBody, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLarge();
  let check: SnsCheck;
  try {
    check = await checkSnsMessage(rawBody, { signatureRequired: options.signatureRequired });
  } catch (error) {
    if (error instanceof SnsUnavailable) throw unavailable();
    throw error;
  }
  if (check.kind === 'not_sns') throw new Forbidden('not an SNS message');
  if (check.kind === 'rejected') {
    // An unreachable certificate is worth a retry (SNS delivers again); a bad signature is not.
    if (check.reason.endsWith('(SNS_SIGNATURE_REQUIRED)')) throw unavailable();
    logger.warn(`${options.what}: SNS message rejected`, { reason: check.reason });
    throw new Forbidden(`SNS message rejected: ${check.reason}`);
  }
  const { message } = check;
  if (message.TopicArn !== options.topicArn) {
    logger.warn(`${options.what}: message of another topic`, { topicArn: String(message.TopicArn) });
    throw new Forbidden(`the SNS message is not from the ${options.what} topic`);
  }
  if (check.kind === 'unverified') logger.warn(`${options.what}: SNS signature not checked`, { problem: check.problem });
  if (message.Type === 'SubscriptionConfirmation') {
    const confirmation = await confirmSnsSubscription(message);
    return { type: 'subscription_confirmation', confirmed: confirmation.subscription_confirmed === true };
  }
  if (message.Type === 'UnsubscribeConfirmation') return { type: 'unsubscribe_confirmation' };
  return { type: 'notification', message, verified: check.kind === 'verified' };
}
