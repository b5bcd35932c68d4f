// Amazon SNS message signatures, as AWS documents them ("Verifying the signatures of Amazon SNS
// messages"): the string to sign is `Name\nvalue\n` for a fixed list of fields per message type, in
// byte order of the names; SignatureVersion 1 signs it with SHA1withRSA, 2 with SHA256withRSA, with
// the key of the certificate at SigningCertURL. That URL, and a SubscribeURL, are only trusted on
// https on an SNS host (`sns.<region>.amazonaws.com`, and `.amazonaws.com.cn` in the China regions).
// Pure: fetching the certificate is sns-http.ts's job.
import { verify, X509Certificate } from 'node:crypto';

export const SNS_MESSAGE_TYPES = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'] as const;
export type SnsMessageType = (typeof SNS_MESSAGE_TYPES)[number];

export type SnsMessage = Record<string, unknown> & { Type: SnsMessageType };

const SIGNED_FIELDS: Record<SnsMessageType, readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** Optional in the string to sign only when absent (a Notification published without Subject). */
const OPTIONAL = new Set(['Subject']);

// sns.us-east-1.amazonaws.com, sns.us-gov-west-1.amazonaws.com, sns.cn-north-1.amazonaws.com.cn
const SNS_HOST = /^sns\.[a-z]{2}(?:-[a-z]+)+-\d+\.amazonaws\.com(?:\.cn)?$/;

/** An SNS envelope: an object whose Type is one of SNS's three message types. */
export function isSnsMessage(value: unknown): value is SnsMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (SNS_MESSAGE_TYPES as readonly unknown[]).includes((value as Record<string, unknown>).Type)
  );
}

/** https, no credentials, no other port, on an SNS host of some region. */
export function isSnsUrl(raw: unknown): raw is string {
  if (typeof raw !== 'string') return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.port === '' && SNS_HOST.test(url.hostname);
}

/** A signing certificate URL: an SNS URL of a `.pem` file. */
export function isSigningCertUrl(raw: unknown): raw is string {
  return isSnsUrl(raw) && new URL(raw).pathname.endsWith('.pem');
}

/** The string SNS signed, or null when a field it signs is missing. */
export function stringToSign(message: SnsMessage): string | null {
  let text = '';
  for (const name of SIGNED_FIELDS[message.Type]) {
    const value = message[name];
    if (value === undefined || value === null) {
      if (OPTIONAL.has(name)) continue;
      return null;
    }
    if (typeof value !== 'string') return null;
    text += `${name}\n${value}\n`;
  }
  return text;
}

export type Verdict = { valid: true } | { valid: false; reason: string };

/** Checks the message's signature against the certificate (PEM) it names, at time `now`. */
export function verifySignature(message: SnsMessage, certificatePem: string, now = Date.now()): Verdict {
  const algorithm = message.SignatureVersion === '1' ? 'sha1' : message.SignatureVersion === '2' ? 'sha256' : null;
  if (!algorithm) return { valid: false, reason: `unsupported SignatureVersion ${JSON.stringify(message.SignatureVersion ?? null)}` };
  if (typeof message.Signature !== 'string' || message.Signature === '') return { valid: false, reason: 'the message has no Signature' };
  const text = stringToSign(message);
  if (text === null) return { valid: false, reason: `a field SNS signs in a ${message.Type} is missing` };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    return { valid: false, reason: 'the signing certificate is not an X.509 certificate' };
  }
  if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) {
    return { valid: false, reason: 'the signing certificate is not valid now' };
  }
  const ok = verify(algorithm, Buffer.from(text, 'utf8'), certificate.publicKey, Buffer.from(message.Signature, 'base64'));
  return ok ? { valid: true } : { valid: false, reason: 'the signature does not match the message' };
}
