// Slack's Web API, called with fetch at SLACK_API_URL (default https://slack.com/api/), so tests reach
// a stand-in on loopback with the same client. The wire format is Slack's documented one, as its own
// SDK sends it: POST <base><method> with a form body (values that are not strings JSON-encoded:
// blocks), the bot token as `Authorization: Bearer`. Slack's SDK was dropped for this: for five
// methods it put ~60 KiB (its queue, retry and event libraries) into every function that pages, and
// its retries had to be turned off anyway. No retries here: a page must not wait minutes for a slow
// Slack. Rate limits are honoured here, by the service clock: after a 429 (or `ok: false, error:
// ratelimited`) the method is not called again for that workspace until its Retry-After has passed;
// a call before then fails at once as rate limited, and the caller decides (a page fails over, a
// team message is retried at that time). Slack's answers become one error type naming Slack's error
// code (`invalid_auth`, `channel_not_found`, …); no answer at all is `unreachable`.
import { now } from '../clock';
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';

/** A Web API call that did not succeed: Slack's `error`, `ratelimited`, or `unreachable` (no answer). */
export class SlackCallFailed extends Error {
  constructor(
    readonly method: string,
    readonly code: string,
    readonly retryAfterSeconds: number | null = null,
    detail?: string,
  ) {
    super(
      `Slack ${method}: ${code}${retryAfterSeconds !== null ? ` (retry after ${retryAfterSeconds} s)` : ''}${detail ? `: ${detail}` : ''}`,
    );
  }

  get rateLimited(): boolean {
    return this.code === 'ratelimited';
  }
}

const TIMEOUT_MS = 5_000;

/** Until when (service clock, ms) each workspace's method is rate limited. */
const limitedUntil = new Map<string, number>();

// Another SLACK_API_URL, or another table whose workspaces are others (the local runtime, tests).
onEnvironmentChange(() => {
  limitedUntil.clear();
});

function gateKey(scope: string, method: string): string {
  return `${scope}\n${method}`;
}

/** Seconds until `method` may be called again for `scope` (a workspace's team id), or 0. */
export function rateLimitRemaining(scope: string, method: string): number {
  const until = limitedUntil.get(gateKey(scope, method));
  if (until === undefined) return 0;
  const left = until - now();
  if (left <= 0) {
    limitedUntil.delete(gateKey(scope, method));
    return 0;
  }
  return Math.ceil(left / 1000);
}

/** Seconds of a Retry-After header; at least 1, as Slack always means some wait. */
function retryAfterOf(answer: Response): number {
  return Math.max(1, Number(answer.headers.get('retry-after')) || 1);
}

/** The arguments as a form body: strings as they are, anything else (blocks, booleans) as JSON. */
function formBody(args: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    if (value !== undefined) form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form.toString();
}

/** One POST of `method`; Slack's `ok: true` answer, or SlackCallFailed. */
async function post(method: string, token: string | undefined, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  let answer: Response;
  let body: unknown;
  try {
    const base = config().SLACK_API_URL;
    answer = await fetch(`${base}${base.endsWith('/') ? '' : '/'}${method}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: formBody(args),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (answer.status === 429) throw new SlackCallFailed(method, 'ratelimited', retryAfterOf(answer));
    if (answer.status !== 200) throw new SlackCallFailed(method, 'unreachable', null, `HTTP ${answer.status}`);
    body = await answer.json();
  } catch (error) {
    if (error instanceof SlackCallFailed) throw error;
    throw new SlackCallFailed(method, 'unreachable', null, (error as Error)?.message ?? String(error));
  }
  if (!body || typeof body !== 'object') throw new SlackCallFailed(method, 'unreachable', null, 'the answer is not a JSON object');
  const result = body as Record<string, unknown>;
  if (result.ok !== true) {
    const code = typeof result.error === 'string' ? result.error : 'unknown_error';
    throw new SlackCallFailed(method, code, code === 'ratelimited' ? retryAfterOf(answer) : null);
  }
  return result;
}

/**
 * One Web API call for `scope` (a workspace's team id; `oauth` or the token's own check before one is
 * known). Throws SlackCallFailed; never calls while the method's rate limit lasts.
 */
export async function callSlack<T>(
  scope: string,
  method: string,
  token: string | undefined,
  args: Record<string, unknown> = {},
): Promise<T> {
  const waiting = rateLimitRemaining(scope, method);
  if (waiting > 0) throw new SlackCallFailed(method, 'ratelimited', waiting, 'not called: the last call was rate limited');
  try {
    return (await post(method, token, args)) as T;
  } catch (error) {
    const failure = error as SlackCallFailed;
    if (failure.rateLimited) limitedUntil.set(gateKey(scope, method), now() + (failure.retryAfterSeconds ?? 1) * 1000);
    throw failure;
  }
}
