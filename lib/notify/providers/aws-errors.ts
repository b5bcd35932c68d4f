// What a failed AWS call says, in one line for the notification's `err`: the service's error name
// (MessageRejected, ValidationException, AccessDeniedException, …) and its message. Never the
// request, which holds the message text.

export function describeAwsError(service: string, error: unknown): string {
  const e = error as { name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  const name = typeof e?.name === 'string' && e.name !== 'Error' ? e.name : null;
  const message = typeof e?.message === 'string' && e.message.trim() !== '' ? e.message.trim() : null;
  const status = e?.$metadata?.httpStatusCode;
  const what = [name, message].filter(Boolean).join(': ') || 'unknown error';
  return `${service} refused the message${status ? ` (HTTP ${status})` : ''}: ${what}`.slice(0, 500);
}

/** SDK clients with our defaults: a couple of attempts and a bounded wait, inside a page's lease. */
export const MESSAGING_CLIENT_DEFAULTS = { maxAttempts: 2, requestHandler: { requestTimeout: 5_000, connectionTimeout: 3_000 } };
