// SNS messages are trusted only once verified (issue: CloudWatch through SNS): before the worker acts
// on a stored request of an `aws_cloudwatch` integration that is an SNS envelope, its SigningCertURL
// must be an https SNS URL and its signature must verify with that certificate; a
// SubscriptionConfirmation that verifies is then confirmed by fetching its SubscribeURL, when that
// is an https SNS URL too. Raw message delivery (the alarm itself as the body) carries no signature
// to check: it is guarded like any other webhook, by the integration's id and option_token.
import type { IngestResult } from '../../logs/records';
import { CertificateUnavailable, confirmSubscription, signingCertificate } from './sns-http';
import { isSigningCertUrl, isSnsMessage, isSnsUrl, verifySignature, type SnsMessage } from './verify-signature';

export type SnsCheck =
  | { kind: 'not_sns' }
  | { kind: 'verified'; message: SnsMessage }
  /** `subscribeUrl`: a SubscriptionConfirmation's, recorded on the log but never fetched. */
  | { kind: 'rejected'; reason: string; subscribeUrl?: string };

function parse(body: string): unknown {
  try {
    return JSON.parse(body.startsWith('\uFEFF') ? body.slice(1) : body);
  } catch {
    return undefined;
  }
}

/** Verifies a stored body if it is an SNS message. Throws SnsUnreachable when the certificate could
 * not be fetched now (the queue tries again later). */
export async function checkSnsMessage(body: string): Promise<SnsCheck> {
  const message = parse(body);
  if (!isSnsMessage(message)) return { kind: 'not_sns' };
  const rejected = (reason: string): SnsCheck => ({
    kind: 'rejected',
    reason,
    ...(message.Type === 'SubscriptionConfirmation' && typeof message.SubscribeURL === 'string'
      ? { subscribeUrl: message.SubscribeURL }
      : {}),
  });
  if (!isSigningCertUrl(message.SigningCertURL)) {
    return rejected('SigningCertURL is not an https URL of a .pem on an sns.<region>.amazonaws.com host');
  }
  let certificate: string;
  try {
    certificate = await signingCertificate(message.SigningCertURL);
  } catch (error) {
    if (error instanceof CertificateUnavailable) return rejected(error.message);
    throw error;
  }
  const verdict = verifySignature(message, certificate);
  return verdict.valid ? { kind: 'verified', message } : rejected(verdict.reason);
}

/** Confirms a verified SubscriptionConfirmation; what happened is recorded on the log. */
export async function confirmVerifiedSubscription(
  message: SnsMessage,
): Promise<Pick<IngestResult, 'subscription_confirmed' | 'subscription_arn' | 'confirmation_skipped'>> {
  if (message.Type !== 'SubscriptionConfirmation') return {};
  if (!isSnsUrl(message.SubscribeURL)) {
    return {
      subscription_confirmed: false,
      confirmation_skipped: 'SubscribeURL is not an https URL on an sns.<region>.amazonaws.com host',
    };
  }
  const answer = await confirmSubscription(message.SubscribeURL);
  return {
    subscription_confirmed: answer.confirmed,
    ...(answer.subscriptionArn ? { subscription_arn: answer.subscriptionArn } : {}),
    ...(answer.confirmed ? {} : { confirmation_skipped: `SNS answered HTTP ${answer.status}` }),
  };
}
