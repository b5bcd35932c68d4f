// The input of POST /api/v4/account_users/:id/push_subscriptions: what a browser's
// PushSubscription.toJSON() gives ({endpoint, expirationTime, keys: {p256dh, auth}}), checked the
// way a push service would need it: an https endpoint, a P-256 public key (65 bytes, uncompressed,
// on the curve) and a 16-byte authentication secret, both base64url (RFC 8291).
import { createECDH, type ECDH } from 'node:crypto';
import * as z from 'zod';
import { lazyObject, lazyStrictObject } from '../lazy-schema';
import { instant, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

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

export const pushSubscriptionInput = lazyObject(() => ({
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
}));

export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

// ---- representations: what represent.ts returns, and the document shows ----

/** A browser's push subscription of an account user (its keys are never shown again). */
export const PushSubscriptionV4 = lazyStrictObject(() => ({
  id: ulid,
  account_id: ulid,
  account_user_id: ulid,
  endpoint: z.string(),
  expiration_time: z.number().int().nullable(),
  user_agent: z.string().nullable(),
  created_at: instant,
  updated_at: instant,
}));

export const PushSubscriptionListV4 = lazyStrictObject(() => ({
  data: z.array(PushSubscriptionV4),
  has_more: z.boolean(),
  total_count: z.number().int(),
}));

/** GET /api/v4/web_push: the VAPID public key a browser subscribes with (applicationServerKey). */
export const WebPushV4 = lazyStrictObject(() => ({
  enabled: z.boolean(),
  vapid_public_key: z.string(),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(pushSubscriptionInput, { id: 'PushSubscriptionCreateInput' });
documentNames.add(PushSubscriptionV4, { id: 'PushSubscriptionV4' });
documentNames.add(PushSubscriptionListV4, { id: 'PushSubscriptionListV4' });
documentNames.add(WebPushV4, { id: 'WebPushV4' });
