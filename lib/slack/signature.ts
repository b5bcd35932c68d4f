// Slack signs every request it sends us (docs/api.md#slack): `X-Slack-Signature` is `v0=` + the hex
// HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>`, keyed with the app's signing secret.
// A timestamp more than 5 minutes from the service's clock is refused, so a captured request cannot
// be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_WINDOW_SECONDS = 300;

export type SignatureCheck = 'valid' | 'missing' | 'stale' | 'mismatch';

/** The timestamp header alone: present, a number, and within the window of `nowMs`. */
export function checkSlackTimestamp(timestamp: string | undefined, nowMs: number): Exclude<SignatureCheck, 'mismatch'> {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return 'missing';
  return Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS ? 'stale' : 'valid';
}

export function slackSignatureOf(signingSecret: string, timestamp: string, body: Buffer | string): string {
  const hmac = createHmac('sha256', signingSecret);
  hmac.update(`v0:${timestamp}:`, 'utf8');
  hmac.update(body);
  return `v0=${hmac.digest('hex')}`;
}

export function checkSlackSignature(input: {
  signingSecret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Buffer;
  nowMs: number;
}): SignatureCheck {
  const time = checkSlackTimestamp(input.timestamp, input.nowMs);
  if (time !== 'valid') return time;
  if (!input.signature || !/^v0=[0-9a-f]{64}$/.test(input.signature)) return 'missing';
  const expected = Buffer.from(slackSignatureOf(input.signingSecret, input.timestamp!, input.body), 'utf8');
  const given = Buffer.from(input.signature, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given) ? 'valid' : 'mismatch';
}
