// Answers that fit: bodies over 1 KB are compressed (br or gzip, as the client's Accept-Encoding
// prefers), and an answer that would still pass Lambda's 6 MB response limit is refused with a
// validation error that suggests a smaller window or page, instead of failing in API Gateway as a
// 502. API Gateway (HTTP API) passes a compressed body on as base64 with isBase64Encoded, and so does
// the local server (infra/local/api-gateway.ts).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

type Result = APIGatewayProxyStructuredResultV2;

export type Encoding = 'br' | 'gzip';

/** Bodies this small are sent as they are: compressing them saves less than it costs. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Lambda's limit on a synchronous response: the whole JSON payload (status, headers, body). */
export const LAMBDA_RESPONSE_BYTES = 6 * 1024 * 1024;

const SUPPORTED: Encoding[] = ['br', 'gzip'];

/**
 * The coding to answer with, from an Accept-Encoding header (RFC 9110 §12.5.3): the supported coding
 * with the highest q-value above 0, `*` standing for any coding not named; br before gzip on a tie
 * (smaller at the same cost, at the quality used here). Null: send the body as it is.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    quality.set(name.trim(), Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : 0);
  }
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const coding of SUPPORTED) {
    const q = quality.get(coding) ?? quality.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

export function compress(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: 6 });
  // Quality 5: about gzip's speed at two thirds of its size; the default (11) takes seconds a megabyte.
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

/** The size Lambda counts: the result as the runtime serializes it (a text body JSON-escaped, a
 * compressed one base64-encoded, 4 bytes for every 3). */
export function payloadBytes(result: Result): number {
  return Buffer.byteLength(JSON.stringify(result), 'utf8');
}

function withHeader(result: Result, name: string, value: string): Result['headers'] {
  const headers = { ...(result.headers ?? {}) };
  const existing = headers[name];
  headers[name] = existing ? `${existing}, ${value}` : value;
  return headers;
}

export interface FitOptions {
  acceptEncoding: string | undefined;
  /** The answer when the result cannot fit (built by the caller: it knows the interface and route). */
  tooLarge: (sizes: { bytes: number; limit: number }) => Result;
  /** Lambda's limit; tests pass a smaller one. */
  limit?: number;
}

/**
 * The result as it is sent: compressed when it is over 1 KB and the client accepts a coding (with
 * `Vary: Accept-Encoding` on every body, so caches keep both forms apart), and replaced by `tooLarge`
 * when it would still pass the response limit.
 */
export function fitResult(result: Result, options: FitOptions): Result {
  const limit = options.limit ?? LAMBDA_RESPONSE_BYTES;
  if (!result.body || result.isBase64Encoded) return result;
  let out: Result = { ...result, headers: withHeader(result, 'vary', 'accept-encoding') };
  const bytes = Buffer.byteLength(result.body, 'utf8');
  const encoding = bytes > MIN_COMPRESSED_BYTES ? negotiateEncoding(options.acceptEncoding) : null;
  if (encoding) {
    const compressed = compress(Buffer.from(result.body, 'utf8'), encoding);
    out = { ...out, body: compressed.toString('base64'), isBase64Encoded: true, headers: { ...out.headers, 'content-encoding': encoding } };
  }
  // A body far under the limit cannot pass it, whatever its escaping; measure only the large ones.
  if (bytes * 6 + 16 * 1024 > limit) {
    const size = payloadBytes(out);
    if (size > limit) return options.tooLarge({ bytes: size, limit });
  }
  return out;
}
