// The input of POST /api/v4/account_users/:id/push_subscriptions: what a browser's
// PushSubscription.toJSON() gives ({endpoint, expirationTime, keys: {p256dh, auth}}), checked the
// way a push service would need it: an https endpoint, a P-256 public key (65 bytes, uncompressed,
// on the curve) and a 16-byte authentication secret, both base64url (RFC 8291).
import { createECDH, type ECDH } from 'node:crypto';
import * as z from 'zod';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function decoded(value: string): Buffer | null {
  return BASE64URL.test(value) ? Buffer.from(value.replace(/=+$/, ''), 'base64url') : null;
}

let probe: ECDH | undefined;

function isP256Point(value: string): boolean {
  const bytes = decoded(value);
  if (!bytes || bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    // Any own key does: computing a shared secret is what refuses a point off the curve.
    if (!probe) {
      probe = createECDH('prime256v1');
      probe.generateKeys();
    }
    probe.computeSecret(bytes);
    return true;
  } catch {
    return false;
  }
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}

export const pushSubscriptionInput = z.object({
  endpoint: z.string().trim().min(1).max(2_048).refine(isHttpsUrl, { message: 'endpoint must be an https URL (a push service address)' }),
  keys: z.object({
    p256dh: z
      .string()
      .trim()
      .min(1)
      .refine(isP256Point, { message: 'keys.p256dh must be a P-256 public key (65 bytes, uncompressed, base64url)' }),
    auth: z
      .string()
      .trim()
      .min(1)
      .refine((value) => decoded(value)?.length === 16, { message: 'keys.auth must be 16 bytes, base64url' }),
  }),
  // Browsers send expirationTime; snake_case is accepted too.
  expirationTime: z.number().int().nonnegative().nullable().optional(),
  expiration_time: z.number().int().nonnegative().nullable().optional(),
  user_agent: z.string().trim().max(300).optional(),
});

export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;
