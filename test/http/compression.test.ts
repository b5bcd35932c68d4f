import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fitResult, negotiateEncoding, payloadBytes } from '../../lib/http/compression';

describe('Accept-Encoding negotiation', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['GZIP;Q=1, br;q=0', 'gzip'],
    ['*', 'br'],
    ['*;q=0.2, br;q=0', 'gzip'],
    ['gzip;q=0, br;q=0', null],
    ['deflate', null],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

const json = (body: unknown) => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const big = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `entry ${i}` }));
const refuse = () => ({ statusCode: 422, body: 'too large' });

describe('answers that fit', () => {
  it('compresses bodies over 1 KB as base64 with Content-Encoding and Vary', () => {
    const out = fitResult(json(big), { acceptEncoding: 'gzip', tooLarge: refuse });
    expect(out.isBase64Encoded).toBe(true);
    expect(out.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'accept-encoding' });
    expect(JSON.parse(gunzipSync(Buffer.from(out.body!, 'base64')).toString('utf8'))).toEqual(big);
    const br = fitResult(json(big), { acceptEncoding: 'br', tooLarge: refuse });
    expect(JSON.parse(brotliDecompressSync(Buffer.from(br.body!, 'base64')).toString('utf8'))).toEqual(big);
  });

  it('leaves small bodies and clients that take no coding alone (with Vary all the same)', () => {
    const small = fitResult(json({ ok: true }), { acceptEncoding: 'gzip', tooLarge: refuse });
    expect(small.isBase64Encoded).toBeUndefined();
    expect(small.headers).toMatchObject({ vary: 'accept-encoding' });
    const plain = fitResult(json(big), { acceptEncoding: undefined, tooLarge: refuse });
    expect(plain.body).toBe(JSON.stringify(big));
  });

  it('refuses an answer whose payload, base64 included, passes the limit; measures what Lambda counts', () => {
    const result = json(big);
    const compressed = fitResult(result, { acceptEncoding: 'gzip', tooLarge: refuse });
    const limit = payloadBytes(compressed);
    expect(fitResult(result, { acceptEncoding: 'gzip', tooLarge: refuse, limit }).statusCode).toBe(200);
    expect(fitResult(result, { acceptEncoding: 'gzip', tooLarge: refuse, limit: limit - 1 }).statusCode).toBe(422);
    // Uncompressed, the same answer is far larger (its quotes escaped in the payload): refused.
    expect(fitResult(result, { acceptEncoding: undefined, tooLarge: refuse, limit }).statusCode).toBe(422);
  });
});
