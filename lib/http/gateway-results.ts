// API Gateway results: JSON bodies with the CORS headers, and the one mapping of errors to the
// contract's error body (docs/api.md#requests).
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { logger } from '../log';
import { CORS } from './cors';
import { ItemTooLarge } from '../store/errors';
import { HttpError, Invalid, Unprocessable } from './errors';
import { interfaceOf } from './request';
import { isScimPath, SCIM_CONTENT_TYPE, scimErrorOf, scimServerError } from './scim-errors';

type Result = APIGatewayProxyStructuredResultV2;

export function jsonResult(status: number, body: unknown, headers: Record<string, string> = {}): Result {
  if (status === 204 || body === undefined) {
    return { statusCode: status, headers: { ...CORS.responseHeaders, ...headers }, body: '' };
  }
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...CORS.responseHeaders, ...headers },
    body: JSON.stringify(body),
  };
}

/** A body that is not JSON (the one-click response page), with the CORS headers. */
export function textResult(status: number, contentType: string, body: string, headers: Record<string, string> = {}): Result {
  return { statusCode: status, headers: { 'content-type': contentType, ...CORS.responseHeaders, ...headers }, body };
}

/** Seconds a client waits before trying a request again that ran out of its time. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** middy's answer just before the function's time runs out: the service was too busy, not the request wrong. */
function ranOutOfTime(error: unknown): boolean {
  return (
    error instanceof Error && error.name === 'TimeoutError' && (error.cause as { package?: string } | undefined)?.package === '@middy/core'
  );
}

/** The contract's error body (docs/api.md#requests): `{errors:[{message}]}`, plus `code` under /api/v4. Validation
 * errors are 422 on v4 and 400 on the earlier interface (Unprocessable stays 422 on both). Unknown
 * errors never leak detail. */
export function errorResult(error: unknown, path: string): Result {
  const iface = interfaceOf(path);
  // A write the store would refuse for its size is the request's fault: a validation error.
  if (error instanceof ItemTooLarge) return errorResult(new Invalid(error.message), path);
  if (isScimPath(path)) return scimErrorResult(error, path);
  if (error instanceof HttpError) {
    const status = error.status === 422 && iface === 'earlier' && !(error instanceof Unprocessable) ? 400 : error.status;
    const body: Record<string, unknown> = { errors: error.messages.map((message) => ({ message })) };
    if (iface === 'v4') body.code = status;
    return jsonResult(status, body, error.headers);
  }
  if (ranOutOfTime(error)) {
    logger.warn('request ran out of its time', { path });
    const body: Record<string, unknown> = { errors: [{ message: 'The service is busy: try again shortly' }] };
    if (iface === 'v4') body.code = 503;
    return jsonResult(503, body, { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) });
  }
  logger.error('unhandled error', { error: error as Error, path });
  const body: Record<string, unknown> = { errors: [{ message: 'Internal server error' }] };
  if (iface === 'v4') body.code = 500;
  return jsonResult(500, body);
}

/** An error under /scim/v2, in SCIM's error body (lib/http/scim-errors.ts). */
function scimErrorResult(error: unknown, path: string): Result {
  const scimJson = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    jsonResult(status, body, { ...headers, 'content-type': SCIM_CONTENT_TYPE });
  if (error instanceof HttpError) {
    const { status, body } = scimErrorOf(error);
    return scimJson(status, body, error.headers);
  }
  if (ranOutOfTime(error)) {
    logger.warn('request ran out of its time', { path });
    return scimJson(503, scimServerError(503, 'The service is busy: try again shortly'), {
      'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
    });
  }
  logger.error('unhandled error', { error: error as Error, path });
  return scimJson(500, scimServerError(500, 'Internal server error'));
}
