// Secrets stored sealed (AES-256-GCM, the key from SECRETS_KEY): never readable from what is stored,
// a fresh nonce each time, and bound to their context, so a sealed value moved to another account's
// item or another field does not open; another key does not open them either.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSecret, sealSecret, SealedSecretUnreadable } from '../../lib/auth/sealed-secrets';
import { config } from '../../lib/config';
import { changeEnvironment } from '../support/dependencies';

const undos: (() => void)[] = [];
const useKey = (key: string) => undos.push(changeEnvironment({ TABLE_NAME: 'oncall', SECRETS_KEY: key }));

beforeEach(() => useKey('a configured key of at least thirty-two characters'));
afterEach(() => {
  while (undos.length > 0) undos.pop()!();
});

describe('sealed secrets', () => {
  it('open in their context, and never show the secret', async () => {
    const sealed = await sealSecret('xoxb-1-secret-token', 'slack:A1:bot_token');
    expect(sealed).toMatch(/^v1\.[\w-]+$/);
    expect(sealed).not.toContain('secret-token');
    expect(await openSecret(sealed, 'slack:A1:bot_token')).toBe('xoxb-1-secret-token');
    expect(await sealSecret('xoxb-1-secret-token', 'slack:A1:bot_token')).not.toBe(sealed);
  });

  it('do not open in another context, altered, or with another key', async () => {
    const sealed = await sealSecret('xoxb-1-secret-token', 'slack:A1:bot_token');
    await expect(openSecret(sealed, 'slack:A2:bot_token')).rejects.toThrow(SealedSecretUnreadable);
    await expect(openSecret(sealed, 'slack:A1:signing_secret')).rejects.toThrow(SealedSecretUnreadable);
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1] ^= 1;
    await expect(openSecret(`v1.${bytes.toString('base64url')}`, 'slack:A1:bot_token')).rejects.toThrow(SealedSecretUnreadable);
    await expect(openSecret('plain text', 'slack:A1:bot_token')).rejects.toThrow(SealedSecretUnreadable);
    useKey('another configured key of at least thirty-two chars');
    await expect(openSecret(sealed, 'slack:A1:bot_token')).rejects.toThrow(/SECRETS_KEY/);
  });

  it('refuse a SECRETS_KEY shorter than 32 characters at start', () => {
    useKey('short');
    expect(() => config()).toThrow(/SECRETS_KEY: at least 32 characters/);
  });
});
