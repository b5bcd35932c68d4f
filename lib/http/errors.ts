// Typed errors that carry their HTTP status; lib/http/handler.ts is the one place that turns them
// into the contract's error body (§4). Messages name the field at fault.

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

export class BadRequest extends HttpError {
  constructor(messages: string | string[]) {
    super(400, messages);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'A valid token was not provided') {
    super(401, message);
  }
}

export class Forbidden extends HttpError {
  constructor(message = 'You do not have access to this resource') {
    super(403, message);
  }
}

export class NotFound extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(message = 'Method not allowed') {
    super(405, message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message = 'Request body is larger than 256 KiB') {
    super(413, message);
  }
}

/** Validation of a well-formed request: 422 on v4, 400 on the earlier interface. */
export class Invalid extends HttpError {
  constructor(messages: string | string[]) {
    super(422, messages);
  }
}

export class TooManyRequests extends HttpError {
  constructor(retryAfterSeconds: number, message = 'Too many requests') {
    super(429, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
