// The two pieces of a Web Push request that need cryptography, on node:crypto alone: the VAPID
// authorization (RFC 8292: an ES256 JWT for the push service's origin, with our public key) and the
// aes128gcm body (RFC 8291 key derivation over RFC 8188 content coding, one record). Pure: no I/O.
// Node's ECDH, HKDF, AES-GCM and ECDSA (IEEE P1363 signatures) do all of it, so no key library is
// bundled into every function that can page (the web-push package brought ~85 KiB of bn.js/asn1.js).
import { createCipheriv, createECDH, createPrivateKey, hkdfSync, randomBytes, sign, type ECDH } from 'node:crypto';

/** Our record size: one record holds the whole payload (the providers cut bodies well inside it). */
const RECORD_SIZE = 4096;
const TAG_BYTES = 16;
/** VAPID tokens live 12 hours (push services refuse more than 24). */
const VAPID_TTL_SECONDS = 12 * 3600;

export interface VapidKeyPair {
  /** The uncompressed P-256 point, base64url (65 bytes). */
  publicKey: string;
  /** The private scalar, base64url (32 bytes). */
  privateKey: string;
}

export interface SubscriptionKeys {
  p256dh: string;
  auth: string;
}

/** A fresh VAPID key pair in the form browsers and `web-push generate-vapid-keys` use. */
export function generateVapidKeys(): VapidKeyPair {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: leftPad(ecdh.getPrivateKey(), 32).toString('base64url') };
}

function leftPad(bytes: Buffer, length: number): Buffer {
  return bytes.length >= length ? bytes : Buffer.concat([Buffer.alloc(length - bytes.length), bytes]);
}

/** The point's coordinates; throws when the key is not an uncompressed P-256 point. */
function coordinates(point: Buffer): { x: string; y: string } {
  if (point.length !== 65 || point[0] !== 4) throw new Error('the public key is not an uncompressed P-256 point');
  return { x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
}

const json64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The `Authorization` header value for a push to `endpoint` (RFC 8292 §3, the `vapid` scheme). */
export function vapidAuthorization(endpoint: string, subject: string, keys: VapidKeyPair, nowMs: number): string {
  const publicKey = Buffer.from(keys.publicKey, 'base64url');
  const privateKey = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: leftPad(Buffer.from(keys.privateKey, 'base64url'), 32).toString('base64url'),
      ...coordinates(publicKey),
    },
    format: 'jwk',
  });
  const claims = { aud: new URL(endpoint).origin, exp: Math.floor(nowMs / 1000) + VAPID_TTL_SECONDS, sub: subject };
  const signingInput = `${json64({ typ: 'JWT', alg: 'ES256' })}.${json64(claims)}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${signingInput}.${signature.toString('base64url')}, k=${keys.publicKey}`;
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** The sender's secrets of one message (RFC 8291 §3.1, RFC 8188 §2.1): an ephemeral P-256 key pair and a 16-byte salt. */
export interface MessageSecrets {
  senderKey: ECDH;
  salt: Buffer;
}

/** New random secrets: every message gets its own (a test gives the RFC's example values instead). */
export function freshMessageSecrets(): MessageSecrets {
  const senderKey = createECDH('prime256v1');
  senderKey.generateKeys();
  return { senderKey, salt: randomBytes(16) };
}

/**
 * The aes128gcm body carrying `payload` to the browser that holds the subscription's keys: a header
 * (salt, record size, our ephemeral public key) and one record ending in the 0x02 delimiter.
 * Throws when the subscription's keys are malformed or the payload does not fit one record.
 */
export function encryptPayload(payload: string, subscription: SubscriptionKeys, secrets: MessageSecrets = freshMessageSecrets()): Buffer {
  const browserKey = Buffer.from(subscription.p256dh, 'base64url');
  coordinates(browserKey);
  const authSecret = Buffer.from(subscription.auth, 'base64url');
  if (authSecret.length < 16) throw new Error('the subscription auth secret is shorter than 16 bytes');
  const plaintext = Buffer.concat([Buffer.from(payload, 'utf8'), Buffer.from([2])]);
  if (plaintext.length + TAG_BYTES > RECORD_SIZE) throw new Error(`the payload is longer than one ${RECORD_SIZE}-byte record`);

  const { senderKey, salt } = secrets;
  if (salt.length !== 16) throw new Error('the salt is not 16 bytes');
  const serverKey = senderKey.getPublicKey();
  const shared = senderKey.computeSecret(browserKey);
  // RFC 8291 §3.4: the input keying material binds the secret to both public keys and the auth secret.
  const ikm = hkdf(authSecret, shared, Buffer.concat([Buffer.from('WebPush: info\0'), browserKey, serverKey]), 32);
  const key = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);

  const cipher = createCipheriv('aes-128-gcm', key, nonce);
  const record = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(21);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header[20] = serverKey.length;
  return Buffer.concat([header, serverKey, record]);
}
