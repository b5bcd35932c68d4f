import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { answersThatFit, negotiateEncoding, payloadBytes, type FitOptions } from '../../lib/http/compression';

type Result = APIGatewayProxyStructuredResultV2;

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

const json = (body: unknown): Result => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const big = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `entry ${i}` }));
const refuse = (): Result => ({ statusCode: 422, body: 'too large' });

/** The result as a real middy chain with the fitting middlewares sends it (the API's handler uses them so). */
async function sent(result: Result, acceptEncoding: string | undefined, options: Partial<FitOptions> = {}): Promise<Result> {
  const handler = middy<APIGatewayProxyEventV2, Result>()
    .use(answersThatFit({ tooLarge: refuse, ...options }))
    .handler(async () => structuredClone(result));
  const event = {
    rawPath: '/test',
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  } as APIGatewayProxyEventV2;
  return handler(event, {} as Context);
}

describe('answers that fit', () => {
  it('compresses bodies over 1 KB as base64 with Content-Encoding and Vary', async () => {
    const out = await sent(json(big), 'gzip');
    expect(out.isBase64Encoded).toBe(true);
    expect(out.headers).toMatchObject({ 'Content-Encoding': 'gzip', vary: 'accept-encoding' });
    expect(JSON.parse(gunzipSync(Buffer.from(out.body!, 'base64')).toString('utf8'))).toEqual(big);
    const br = await sent(json(big), 'br');
    expect(br.headers).toMatchObject({ 'Content-Encoding': 'br' });
    expect(JSON.parse(brotliDecompressSync(Buffer.from(br.body!, 'base64')).toString('utf8'))).toEqual(big);
  });

  it('leaves small bodies and clients that take no coding alone (with Vary all the same)', async () => {
    const small = await sent(json({ ok: true }), 'gzip');
    expect(small.isBase64Encoded).toBeUndefined();
    expect(small.headers).toMatchObject({ vary: 'accept-encoding' });
    // Just over the threshold is compressed, at it is not, even where compressing would pay.
    const atThreshold = json({ text: 'x'.repeat(1024 - 11) });
    expect(atThreshold.body).toHaveLength(1024);
    expect((await sent(atThreshold, 'gzip')).isBase64Encoded).toBeUndefined();
    expect((await sent(json({ text: 'x'.repeat(1024 - 10) }), 'gzip')).isBase64Encoded).toBe(true);
    const plain = await sent(json(big), undefined);
    expect(plain.body).toBe(JSON.stringify(big));
    expect(plain.headers).toMatchObject({ vary: 'accept-encoding' });
  });

  it('adds Accept-Encoding to a Vary the answer already has, once', async () => {
    const out = await sent({ ...json(big), headers: { 'content-type': 'application/json', Vary: 'Origin' } }, 'gzip');
    expect(out.headers).toMatchObject({ Vary: 'Origin, accept-encoding' });
    expect(Object.keys(out.headers!).filter((name) => name.toLowerCase() === 'vary')).toHaveLength(1);
  });

  it('refuses an answer whose payload, base64 included, passes the limit; measures what Lambda counts', async () => {
    const result = json(big);
    const compressed = await sent(result, 'gzip');
    const limit = payloadBytes(compressed);
    expect((await sent(result, 'gzip', { limit })).statusCode).toBe(200);
    expect((await sent(result, 'gzip', { limit: limit - 1 })).statusCode).toBe(422);
    // Uncompressed, the same answer is far larger (its quotes escaped in the payload): refused.
    expect((await sent(result, undefined, { limit })).statusCode).toBe(422);
  });

  it('tells the refusal whether the client took a coding, and its size', async () => {
    const seen: Array<{ bytes: number; limit: number; compressible: boolean }> = [];
    const tooLarge: FitOptions['tooLarge'] = (sizes) => {
      seen.push(sizes);
      return refuse();
    };
    await sent(json(big), 'br', { limit: 100, tooLarge });
    await sent(json(big), 'identity', { limit: 100, tooLarge });
    expect(seen.map((sizes) => sizes.compressible)).toEqual([true, false]);
    expect(seen[0].bytes).toBeLessThan(seen[1].bytes);
    expect(seen.every((sizes) => sizes.limit === 100)).toBe(true);
  });
});
