// SNS messages are trusted only once verified (issue: CloudWatch through SNS): before the worker acts
// on a stored request of an `aws_cloudwatch` integration that is an SNS envelope, its SigningCertURL
// must be an https SNS URL and its signature must verify with that certificate; a
// SubscriptionConfirmation is then confirmed by fetching its SubscribeURL, when that is an https SNS
// URL too. Raw message delivery (the alarm itself as the body) carries no signature to check: it is
// guarded like any other webhook, by the integration's id and option_token.
//
// Verification is strict wherever it can decide: a SigningCertURL off the SNS hosts, a certificate
// that does not verify the signature, an unknown SignatureVersion or a missing Signature reject the
// message. It cannot decide when the certificate cannot be fetched at all (no network path to SNS: a
// private deployment, a DNS outage): an alarm is then worth more than the check, so the message is
// accepted as `unverified` and the log says so — unless SNS_SIGNATURE_REQUIRED asks for a verdict.
import type { IngestResult } from '../../logs/records';
import { CertificateUnavailable, confirmSubscription, signingCertificate, SnsNetworkFailure } from './sns-http';
import { isSigningCertUrl, isSnsMessage, isSnsUrl, verifySignature, type SnsMessage } from './verify-signature';

/** What the log records as `data.sns_signature` for an accepted unverified message. */
export const UNVERIFIED_UNREACHABLE = 'unverified: certificate unreachable';

export type SnsCheck =
  | { kind: 'not_sns' }
  | { kind: 'verified'; message: SnsMessage }
  /** The certificate could not be reached; `problem`: the network failure. */
  | { kind: 'unverified'; message: SnsMessage; problem: string }
  /** `subscribeUrl`: a SubscriptionConfirmation's, recorded on the log but never fetched. */
  | { kind: 'rejected'; reason: string; subscribeUrl?: string };

export interface SnsCheckOptions {
  /** SNS_SIGNATURE_REQUIRED: a certificate that cannot be reached rejects the message. */
  signatureRequired: boolean;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body.startsWith('\uFEFF') ? body.slice(1) : body);
  } catch {
    return undefined;
  }
}

/** Verifies a stored body if it is an SNS message. Throws SnsUnavailable when SNS answered 5xx/429
 * for the certificate (the queue tries again later). */
export async function checkSnsMessage(body: string, options: SnsCheckOptions): Promise<SnsCheck> {
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
  // What the message says of itself is checked before any fetch: these need no certificate to refuse.
  const version = message.SignatureVersion;
  if (version !== '1' && version !== '2') return rejected(`unsupported SignatureVersion ${JSON.stringify(version ?? null)}`);
  if (typeof message.Signature !== 'string' || message.Signature === '') return rejected('the message has no Signature');

  let certificate: string;
  try {
    certificate = await signingCertificate(message.SigningCertURL);
  } catch (error) {
    if (error instanceof CertificateUnavailable) return rejected(error.message);
    if (error instanceof SnsNetworkFailure) {
      if (options.signatureRequired)
        return rejected(`the signing certificate could not be fetched: ${error.message} (SNS_SIGNATURE_REQUIRED)`);
      return { kind: 'unverified', message, problem: error.message };
    }
    throw error;
  }
  const verdict = verifySignature(message, certificate);
  return verdict.valid ? { kind: 'verified', message } : rejected(verdict.reason);
}

/** Confirms a SubscriptionConfirmation that was not rejected; what happened is recorded on the log. */
export async function confirmSnsSubscription(
  message: SnsMessage,
): Promise<Pick<IngestResult, 'subscription_confirmed' | 'subscription_arn' | 'confirmation_skipped' | 'confirmation_failed'>> {
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
    ...(answer.problem ? { confirmation_failed: answer.problem } : {}),
  };
}
