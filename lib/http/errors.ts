// Typed errors that carry their HTTP status; lib/http/gateway-results.ts is the one place that turns them
// into the contract's error body (docs/api.md#requests). Messages name the field at fault.

export class HttpError extends Error {
  readonly status: number;
  readonly messages: string[];
  readonly headers: Record<string, string>;

  constructor(status: number, messages: string | string[], headers: Record<string, string> = {}) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '));
    this.status = status;
    this.messages = list;
    this.headers = headers;
  }
}

/** The error class of one status; `fallback` is its message when none is given. */
function statusError(status: number, fallback = '') {
  return class extends HttpError {
    constructor(messages: string | string[] = fallback) {
      super(status, messages);
    }
  };
}

export class BadRequest extends statusError(400) {}
export class Unauthorized extends statusError(401, 'A valid token was not provided') {}
export class Forbidden extends statusError(403, 'You do not have access to this resource') {}
export class NotFound extends statusError(404, 'Not found') {}
export class MethodNotAllowed extends statusError(405, 'Method not allowed') {}
export class Conflict extends statusError(409) {}
export class PayloadTooLarge extends statusError(413, 'Request body is larger than 256 KiB') {}
/** A service we call for the request (Slack) did not answer, or answered with what the caller cannot fix. */
export class BadGateway extends statusError(502, 'An upstream service did not answer') {}
/** Validation of a well-formed request: 422 on v4, 400 on the earlier interface. */
export class Invalid extends statusError(422) {}
/** Validation that is 422 on every interface: the contract's password routes under /public (docs/api.md#authentication). */
export class Unprocessable extends statusError(422) {}

export class TooManyRequests extends HttpError {
  /** `headers`: more to send with the 429 (the request limits' RateLimit-* fields). */
  constructor(retryAfterSeconds: number, message = 'Too many requests', headers: Record<string, string> = {}) {
    super(429, message, { ...headers, 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
