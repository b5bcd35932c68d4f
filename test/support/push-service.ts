// A browser's side of Web Push, for tests: a subscription keypair made with node:crypto ECDH (as a
// browser makes one), and a local HTTPS push service that receives what the provider sends,
// checks the VAPID authorization (RFC 8292: an ES256 JWT for the endpoint's origin, signed with the
// key it names) and decrypts the aes128gcm payload (RFC 8291 / RFC 8188) with the subscription's
// private key. Paths can be told to answer 404 or 410, as a push service does for a gone subscription.
import { createECDH, createDecipheriv, createHmac, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https, { Agent } from 'node:https';
import type { AddressInfo } from 'node:net';

const CERT = readFileSync(new URL('../fixtures/push/push-service-cert.pem', import.meta.url), 'utf8');
const KEY = readFileSync(new URL('../fixtures/push/push-service-key.pem', import.meta.url), 'utf8');

/** An agent that trusts the local push service's certificate (and nothing else more). */
export const pushServiceAgent = () => new Agent({ ca: CERT });

export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
  auth: Buffer;
}

export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') }, ecdh, auth };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291: the plaintext of an aes128gcm body, with the subscription's private key and auth secret. */
export function decryptPush(body: Buffer, subscription: BrowserSubscription): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = subscription.ecdh.computeSecret(serverKey);
  const prkKey = hmac(subscription.auth, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.ecdh.getPublicKey(), serverKey, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not the last record (no 0x02 delimiter)');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: the VAPID header's JWT verifies with its key `k`, for the endpoint's origin; the claims. */
export function checkVapid(authorization: string, origin: string): { key: string; claims: Record<string, unknown> } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [header, payload, signature] = match[1].split('.');
  const raw = Buffer.from(match[2], 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('the VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (claims.aud !== origin) throw new Error(`VAPID aud ${String(claims.aud)} is not ${origin}`);
  return { key: match[2], claims };
}

export interface PushReceipt {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushService {
  origin: string;
  received: PushReceipt[];
  /** Requests to `path` are answered with `status` (404, 410: the subscription is gone). */
  answer(path: string, status: number): void;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const received: PushReceipt[] = [];
  const answers = new Map<string, number>();
  let counter = 0;
  const server = https.createServer({ cert: CERT, key: KEY }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const status = answers.get(path) ?? 201;
      res.writeHead(status, status === 201 ? { location: `https://push.invalid/m/${++counter}` } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answer: (path, status) => void answers.set(path, status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
