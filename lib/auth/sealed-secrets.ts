// Secrets the service must use again later (a Slack workspace's bot token and signing secret) are
// stored sealed: AES-256-GCM (node:crypto), a fresh 96-bit nonce per value, and the value's context
// (its account and field) as additional data, so a sealed value copied into another account's item or
// another field does not open. The key is derived (HKDF-SHA256) from SECRETS_KEY, else from a random
// key generated once and kept in the table, as the JWT secret is (lib/auth/jwt.ts).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';
import { getStoredSealingKey, insertSealingKey } from './store';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

let cached: Buffer | undefined;
// Another SECRETS_KEY, or another table with a key of its own (the local runtime, tests).
onEnvironmentChange(() => {
  cached = undefined;
});

async function sealingKey(): Promise<Buffer> {
  if (cached) return cached;
  const configured = config().SECRETS_KEY;
  const material = configured ?? (await storedMaterial());
  cached = Buffer.from(hkdfSync('sha256', material, 'oncall-sealed-secrets', 'aes-256-gcm v1', 32));
  return cached;
}

async function storedMaterial(): Promise<string> {
  const stored = await getStoredSealingKey();
  if (stored) return stored;
  const fresh = randomBytes(32).toString('base64url');
  if (await insertSealingKey(fresh)) return fresh;
  return (await getStoredSealingKey())!;
}

/** A value that cannot be opened: another key sealed it (SECRETS_KEY changed), or it was altered. */
export class SealedSecretUnreadable extends Error {}

/** `v1.<base64url of nonce | tag | ciphertext>`. */
export async function sealSecret(plaintext: string, context: string): Promise<string> {
  const key = await sealingKey();
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export async function openSecret(sealed: string, context: string): Promise<string> {
  const [version, packed] = sealed.split('.');
  if (version !== VERSION || !packed) throw new SealedSecretUnreadable('not a sealed secret of this service');
  const bytes = Buffer.from(packed, 'base64url');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SealedSecretUnreadable('the sealed secret is truncated');
  const key = await sealingKey();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretUnreadable('the sealed secret does not open with this key (was SECRETS_KEY changed?)');
  }
}
