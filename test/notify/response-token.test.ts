// The one-click token's claims are read by hand (readTokenPayload), so that the workers that sign
// links load no zod: held here to the zod/mini schema it replaced, over arbitrary JSON and over
// payloads made to sit at each claim's edges, and through verifyResponseToken with a valid MAC.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { readTokenPayload, verifyResponseToken } from '../../lib/notify/content/response-token';

const tokenId = () => z.string().check(z.minLength(1), z.maxLength(64));
const schema = z.object({ c: tokenId(), l: tokenId(), w: tokenId(), u: tokenId(), a: z.enum(['a', 'r']), e: z.number() });

const bySchema = (value: unknown) => {
  const read = schema.safeParse(value);
  return read.success ? read.data : null;
};

const SECRET = 'a-test-secret-that-is-long-enough-32b';

/** A token whose MAC is right for whatever payload it carries (as signResponseToken makes one). */
function signed(payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  const mac = createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(`r1.${body}`).digest('base64url');
  return `r1.${body}.${mac}`;
}

const claim = fc.oneof(
  fc.string({ minLength: 0, maxLength: 70 }),
  fc.constantFrom('', 'x', 'x'.repeat(64), 'x'.repeat(65), '\u{1F600}'.repeat(32), '\u{1F600}'.repeat(33)),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 2 }),
);
const action = fc.oneof(fc.constantFrom('a', 'r', 'A', 'acknowledge', ''), fc.integer(), fc.constant(null));
const expiry = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, 0.1),
  fc.string({ maxLength: 3 }),
  fc.constant(null),
);
const payload = fc.record({ c: claim, l: claim, w: claim, u: claim, a: action, e: expiry, extra: fc.jsonValue() }, { requiredKeys: [] });

describe('one-click token claims', () => {
  it('property: the hand-written reader agrees with the zod/mini schema it replaced', () => {
    fc.assert(
      fc.property(fc.oneof(payload, fc.jsonValue()), (value) => {
        // Through JSON, as a token carries it (an infinite number arrives as 1e400 parsed).
        const parsed: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        expect(readTokenPayload(parsed)).toEqual(bySchema(parsed));
      }),
      { numRuns: 3_000 },
    );
  });

  it('reads an infinite expiry, an array and claims at their lengths as the schema does', () => {
    const ok = { c: 'x'.repeat(64), l: 'l', w: 'w', u: 'u', a: 'r', e: 5 };
    for (const value of [
      ok,
      { ...ok, extra: 1 },
      { ...ok, c: '' },
      { ...ok, c: 'x'.repeat(65) },
      // Code points, not UTF-16 units: 33 emoji (66 units) are 33 characters; 65 are too many.
      { ...ok, w: '\u{1F600}'.repeat(33) },
      { ...ok, w: '\u{1F600}'.repeat(65) },
      { ...ok, a: 'acknowledge' },
      { ...ok, e: '5' },
      [ok],
      JSON.parse('{"c":"c","l":"l","w":"w","u":"u","a":"a","e":1e400}'),
    ]) {
      expect(readTokenPayload(value)).toEqual(bySchema(value));
    }
    expect(readTokenPayload({ ...ok, extra: 1 })).toEqual(ok);
    expect(readTokenPayload({ ...ok, w: '\u{1F600}'.repeat(33) })).not.toBeNull();
  });

  it('a token with a valid MAC and claims of the wrong shape is malformed; one of the right shape verifies', () => {
    const now = Date.UTC(2026, 0, 1);
    const good = { c: 'ACC', l: 'ALT', w: 'WKF', u: 'ACU', a: 'a', e: now + 1 };
    expect(verifyResponseToken(signed(good), SECRET, now)).toEqual({
      ok: true,
      claims: { accountId: 'ACC', alertId: 'ALT', workflowId: 'WKF', accountUserId: 'ACU', action: 'acknowledge', expiresAt: now + 1 },
    });
    for (const bad of [{ ...good, a: 'x' }, { ...good, e: String(now + 1) }, { ...good, u: '' }, { ...good, l: 7 }, [good], 'text', null]) {
      expect(verifyResponseToken(signed(bad), SECRET, now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});
