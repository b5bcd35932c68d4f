import { describe, expect, it } from 'vitest';
import { checkSlackSignature, checkSlackTimestamp, slackSignatureOf, SIGNATURE_WINDOW_SECONDS } from '../../lib/slack/signature.js';

const now = Date.UTC(2026, 10, 27, 3, 0, 0);
const seconds = now / 1000;

describe("Slack's request timestamp", () => {
  it('is accepted up to 300 seconds either side of the clock, and refused one second beyond', () => {
    expect(SIGNATURE_WINDOW_SECONDS).toBe(300);
    expect(checkSlackTimestamp(String(seconds), now)).toBe('valid');
    expect(checkSlackTimestamp(String(seconds - 300), now)).toBe('valid');
    expect(checkSlackTimestamp(String(seconds + 300), now)).toBe('valid');
    expect(checkSlackTimestamp(String(seconds - 301), now)).toBe('stale');
    expect(checkSlackTimestamp(String(seconds + 301), now)).toBe('stale');
    // the clock's milliseconds count: 300.5 s away is outside
    expect(checkSlackTimestamp(String(seconds + 300), now - 500)).toBe('stale');
  });

  it('is missing when absent or not whole seconds', () => {
    for (const bad of [undefined, '', 'abc', '1.5', '-12', `${seconds}x`, '1234567890123']) {
      expect(checkSlackTimestamp(bad, now), String(bad)).toBe('missing');
    }
  });
});

describe("Slack's signature", () => {
  const body = Buffer.from('payload=%7B%22type%22%3A%22block_actions%22%7D');
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const timestamp = String(seconds);
  const signature = slackSignatureOf(secret, timestamp, body);

  it("is v0= and the HMAC-SHA256 of v0:<timestamp>:<body>, as Slack's documentation computes it", () => {
    expect(signature).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature, body, nowMs: now })).toBe('valid');
  });

  it('is a mismatch for another secret, another body or another timestamp, and stale before it is compared', () => {
    expect(checkSlackSignature({ signingSecret: 'other', timestamp, signature, body, nowMs: now })).toBe('mismatch');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature, body: Buffer.from('payload=x'), nowMs: now })).toBe(
      'mismatch',
    );
    expect(checkSlackSignature({ signingSecret: secret, timestamp: String(seconds + 1), signature, body, nowMs: now })).toBe('mismatch');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature, body, nowMs: now + 301_000 })).toBe('stale');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature: 'v0=abc', body, nowMs: now })).toBe('missing');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature: undefined, body, nowMs: now })).toBe('missing');
  });
});
