// Answers that fit: bodies over 1 KB are compressed (br or gzip, as the client's Accept-Encoding
// prefers) by @middy/http-content-encoding, and an answer that would still pass Lambda's 6 MB
// response limit is refused with a validation error that suggests a smaller window or page, instead
// of failing in API Gateway as a 502. API Gateway (HTTP API) passes a compressed body on as base64
// with isBase64Encoded, and so does the local server (infra/local/api-gateway.ts).
// The middleware and node:zlib load with the first answer that is compressed (a chunk of their own
// in the deployed bundle, infra/bundling.ts): a cold start does not load them, and an answer under
// 1 KB, or to a client that takes no coding, never does.
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
type HttpRequest = Request<Event, Result>;
/** Where @middy/http-content-encoding reads the coding to use (its negotiation middleware's output). */
type EncodingChoice = Context & { preferredEncoding?: string; preferredEncodings?: string[] };

export type Encoding = 'br' | 'gzip';

/** Bodies this small are sent as they are: compressing them saves less than it costs. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Lambda's limit on a synchronous response: the whole JSON payload (status, headers, body). */
export const LAMBDA_RESPONSE_BYTES = 6 * 1024 * 1024;

const SUPPORTED: Encoding[] = ['br', 'gzip'];

/**
 * The coding to answer with, from an Accept-Encoding header (RFC 9110 §12.5.3): the supported coding
 * with the highest q-value above 0, `*` standing for any coding not named; br before gzip on a tie
 * (smaller at the same cost, at the quality used here). Null: send the body as it is. The middleware
 * leaves this choice to its caller (middy's own negotiation middleware prefers the client's order on a
 * tie and also answers 406 for Accept headers, which docs/api.md#responses does not).
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

/** The size Lambda counts: the result as the runtime serializes it (a text body JSON-escaped, a
 * compressed one base64-encoded, 4 bytes for every 3). */
export function payloadBytes(result: Result): number {
  return Buffer.byteLength(JSON.stringify(result), 'utf8');
}

const headerNamed = (headers: Result['headers'], name: string) => Object.keys(headers ?? {}).find((key) => key.toLowerCase() === name);

/** Tells the encoding middleware which coding to use, for text bodies over 1 KB only. */
function chooseEncoding(): MiddlewareObj<Event, Result> {
  // Middy awaits what a middleware returns and takes anything but undefined as the answer: these return nothing.
  const choose = (request: HttpRequest) => {
    const response = request.response;
    const choice = request.context as EncodingChoice;
    choice.preferredEncoding = undefined;
    choice.preferredEncodings = [];
    if (!response?.body || response.isBase64Encoded || Buffer.byteLength(response.body, 'utf8') <= MIN_COMPRESSED_BYTES) return;
    const encoding = negotiateEncoding(request.event.headers?.['accept-encoding']);
    if (!encoding) return;
    choice.preferredEncoding = encoding;
    choice.preferredEncodings = [encoding];
  };
  return { after: choose, onError: choose };
}

export interface FitOptions {
  /** The answer when the result cannot fit (built by the caller: it knows the interface and route).
   * `compressible`: the client accepts a coding, so the answer was measured compressed. */
  tooLarge: (sizes: { bytes: number; limit: number; compressible: boolean }, event: Event) => Result;
  /** Lambda's limit; tests pass a smaller one. */
  limit?: number;
}

/**
 * `Vary: Accept-Encoding` on every text body, compressed or not, so caches keep both forms apart; and
 * the size guard: a result that would still pass the response limit is replaced by `tooLarge`.
 */
function sizeGuard(options: FitOptions): MiddlewareObj<Event, Result> {
  const limit = options.limit ?? LAMBDA_RESPONSE_BYTES;
  const guard = (request: HttpRequest) => {
    const response = request.response;
    if (!response?.body) return;
    const compressed = headerNamed(response.headers, 'content-encoding') !== undefined;
    if (response.isBase64Encoded && !compressed) return;
    const headers = { ...(response.headers ?? {}) };
    const vary = headerNamed(headers, 'vary');
    if (vary === undefined) headers.vary = 'accept-encoding';
    else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(String(headers[vary]))) headers[vary] = `${headers[vary]}, accept-encoding`;
    request.response = { ...response, headers };
    // A body far under the limit cannot pass it, whatever its escaping; measure only the large ones.
    if (response.body.length * 6 + 16 * 1024 > limit) {
      const bytes = payloadBytes(request.response);
      const compressible = negotiateEncoding(request.event.headers?.['accept-encoding']) !== null;
      if (bytes > limit) request.response = options.tooLarge({ bytes, limit, compressible }, request.event);
    }
  };
  return { after: guard, onError: guard };
}

type Step = (request: HttpRequest) => Promise<void>;

let encoder: Promise<{ after: Step; onError: Step }> | undefined;

/** @middy/http-content-encoding, loaded and configured once, by the first answer to compress. */
function loadEncoder(): Promise<{ after: Step; onError: Step }> {
  encoder ??= Promise.all([import('@middy/http-content-encoding'), import('node:zlib')]).then(
    ([{ default: httpContentEncoding }, { constants }]) =>
      httpContentEncoding({
        // gzip at zlib's default level 6; brotli at quality 5: about gzip's speed at two thirds of its
        // size (the default, 11, takes seconds a megabyte).
        br: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
      }) as unknown as { after: Step; onError: Step },
    (error: unknown) => {
      encoder = undefined;
      throw error;
    },
  );
  return encoder;
}

/**
 * @middy/http-content-encoding, loaded when an answer is to be compressed. Every answer first gets
 * the normalisation that middleware gives it (@middy/util's normalizeHttpResponse: an absent
 * response becomes an object, a bare value a 200 body, statusCode defaults to 500 and headers to
 * {}), compressed or not, as it did when the middleware was loaded at start.
 */
function contentEncoding(): MiddlewareObj<Event, Result> {
  const normalize = (request: HttpRequest) => {
    const response = request.response as Partial<Result> | null | undefined;
    let result: Partial<Result>;
    if (response === undefined) result = {};
    else if (response?.statusCode === undefined && response?.body === undefined && response?.headers === undefined) {
      result = { statusCode: 200, body: response as unknown as string };
    } else result = response;
    result.statusCode ??= 500;
    result.headers ??= {};
    request.response = result;
  };
  const encode = async (request: HttpRequest, step: 'after' | 'onError') => {
    if (step === 'onError' && request.response === undefined) return;
    normalize(request);
    const { preferredEncoding } = request.context as EncodingChoice;
    if (!preferredEncoding || request.response?.isBase64Encoded || !request.response?.body) return;
    await (await loadEncoder())[step](request);
  };
  return { after: (request) => encode(request, 'after'), onError: (request) => encode(request, 'onError') };
}

/**
 * The middlewares that make every answer fit, in the order `.use()` takes them: put them before the
 * error mapping, so that errors are compressed and measured too.
 */
export function answersThatFit(options: FitOptions): MiddlewareObj<Event, Result>[] {
  return [sizeGuard(options), contentEncoding(), chooseEncoding()];
}
