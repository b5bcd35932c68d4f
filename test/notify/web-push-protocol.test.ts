// Web Push's cryptography on node:crypto (RFC 8291 aes128gcm bodies, RFC 8292 VAPID), checked by the
// test push service's own decryptor and verifier (test/support/push-service.ts): a browser's side
// written separately, from the RFCs, that the real provider's requests already pass end to end.
import { createECDH, type ECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPayload, generateVapidKeys, vapidAuthorization } from '../../lib/notify/providers/web-push-protocol';
import { browserSubscription, checkVapid, decryptPush } from '../support/push-service';

/** RFC 8291 Appendix A, "Push Message Encryption Example": every value as printed there (base64url). */
const RFC_8291_EXAMPLE = {
  plaintext: 'When I grow up, I want to be a watermelon',
  senderPrivateKey: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  senderPublicKey: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  browserPublicKey: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  authSecret: 'BTBZMqHH6r4Tts7J_aSIgg',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  body:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT' +
    'pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

describe('Web Push protocol', () => {
  it("gives the RFC 8291 example's message byte for byte from its keys and salt", () => {
    const example = RFC_8291_EXAMPLE;
    const senderKey = createECDH('prime256v1');
    senderKey.setPrivateKey(Buffer.from(example.senderPrivateKey, 'base64url'));
    expect(senderKey.getPublicKey().toString('base64url')).toBe(example.senderPublicKey);
    const body = encryptPayload(
      example.plaintext,
      { p256dh: example.browserPublicKey, auth: example.authSecret },
      { senderKey, salt: Buffer.from(example.salt, 'base64url') },
    );
    expect(body.toString('base64url')).toBe(example.body);
  });

  it('encrypts a payload the subscription holder alone can read, with a fresh salt and key each time', () => {
    const browser = browserSubscription('https://push.example/abc');
    const payload = JSON.stringify({ title: 'Disk full — ünïcode ✓', body: 'x'.repeat(1500) });
    const first = encryptPayload(payload, browser.keys);
    const second = encryptPayload(payload, browser.keys);
    expect(decryptPush(first, browser)).toBe(payload);
    expect(decryptPush(second, browser)).toBe(payload);
    expect(first.readUInt32BE(16)).toBe(4096);
    expect(first[20]).toBe(65);
    expect(first.subarray(0, 16).equals(second.subarray(0, 16))).toBe(false);
    expect(first.subarray(21, 86).equals(second.subarray(21, 86))).toBe(false);
    const stranger = browserSubscription('https://push.example/other');
    expect(() => decryptPush(first, { ...stranger, auth: browser.auth })).toThrow();
  });

  it('refuses keys that are not a P-256 point or an auth secret too short, and a payload past one record', () => {
    const browser = browserSubscription('https://push.example/abc');
    expect(() => encryptPayload('hi', { ...browser.keys, p256dh: Buffer.alloc(65, 1).toString('base64url') })).toThrow();
    expect(() => encryptPayload('hi', { ...browser.keys, p256dh: browser.keys.p256dh.slice(0, 40) })).toThrow(/P-256/);
    expect(() => encryptPayload('hi', { ...browser.keys, auth: 'AAAA' })).toThrow(/16 bytes/);
    expect(() => encryptPayload('x'.repeat(4080), browser.keys)).toThrow(/record/);
  });

  it('signs a VAPID token for the endpoint origin that verifies with the public key it names', () => {
    const keys = generateVapidKeys();
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32);
    const at = Date.UTC(2026, 10, 23, 12);
    const header = vapidAuthorization('https://fcm.example:8443/wp/abc?x=1', 'mailto:ops@example.com', keys, at);
    const { key, claims } = checkVapid(header, 'https://fcm.example:8443');
    expect(key).toBe(keys.publicKey);
    expect(claims).toEqual({ aud: 'https://fcm.example:8443', exp: at / 1000 + 12 * 3600, sub: 'mailto:ops@example.com' });
    // Signed by the private key: another pair's private key with this public key does not verify.
    const forged = vapidAuthorization(
      'https://fcm.example:8443/x',
      'mailto:a@b.c',
      { ...keys, privateKey: generateVapidKeys().privateKey },
      at,
    );
    expect(() => checkVapid(forged, 'https://fcm.example:8443')).toThrow(/signature/);
  });

  it('accepts a private key whose scalar has leading zero bytes written short', () => {
    // Find a pair whose scalar starts with a zero byte (1 in 256), then give it without that byte.
    let ecdh: ECDH;
    do {
      ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
    } while (ecdh.getPrivateKey().length === 32 && ecdh.getPrivateKey()[0] !== 0);
    const scalar = ecdh.getPrivateKey();
    const short = scalar[0] === 0 ? scalar.subarray(1) : scalar;
    const keys = { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: short.toString('base64url') };
    const header = vapidAuthorization('https://push.example/x', 'mailto:a@b.c', keys, Date.now());
    expect(checkVapid(header, 'https://push.example').key).toBe(keys.publicKey);
  });
});
