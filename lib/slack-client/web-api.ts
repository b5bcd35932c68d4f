// Slack's Web API through Slack's own SDK (@slack/web-api), pointed at SLACK_API_URL (default
// https://slack.com/api/), so tests reach a stand-in on loopback with the same client. Every call
// carries the bot token as `Authorization: Bearer` (the SDK's way). The SDK's own retries are off:
// a page must not wait minutes for a slow Slack. Rate limits are honoured here, by the service clock:
// after a 429 (or `ok: false, error: ratelimited`) the method is not called again for that workspace
// until its Retry-After has passed; a call before then fails at once as rate limited, and the caller
// decides (a page fails over, a team message is retried at that time). Slack's answers become one
// error type naming Slack's error code (`invalid_auth`, `channel_not_found`, …).
import { ErrorCode, WebClient, type Logger, LogLevel } from '@slack/web-api';
import { now } from '../clock';
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';
import { logger } from '../log';

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

/** The SDK's log lines go to ours; its debug and info chatter is dropped. */
const sdkLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (...parts: unknown[]) => logger.warn(`slack sdk: ${parts.map(String).join(' ')}`),
  error: (...parts: unknown[]) => logger.error(`slack sdk: ${parts.map(String).join(' ')}`),
  setLevel: () => {},
  getLevel: () => LogLevel.WARN,
  setName: () => {},
};

const clients = new Map<string, WebClient>();
const MAX_CLIENTS = 500;

function clientFor(token: string | undefined): WebClient {
  const base = config().SLACK_API_URL;
  const key = `${base}\n${token ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
    client = new WebClient(token, {
      slackApiUrl: base,
      logger: sdkLogger,
      timeout: TIMEOUT_MS,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      // Method names are ours, never absolute URLs from elsewhere.
      allowAbsoluteUrls: false,
    });
    clients.set(key, client);
  }
  return client;
}

/** Until when (service clock, ms) each workspace's method is rate limited. */
const limitedUntil = new Map<string, number>();

// Another SLACK_API_URL, or another table whose workspaces are others (the local runtime, tests).
onEnvironmentChange(() => {
  clients.clear();
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

function failureOf(method: string, error: unknown): SlackCallFailed {
  const coded = error as { code?: string; data?: { error?: string; response_metadata?: { retryAfter?: number } }; retryAfter?: number };
  switch (coded?.code) {
    case ErrorCode.RateLimitedError:
      return new SlackCallFailed(method, 'ratelimited', Math.max(1, coded.retryAfter ?? 1));
    case ErrorCode.PlatformError: {
      const code = coded.data?.error ?? 'unknown_error';
      const retry = code === 'ratelimited' ? Math.max(1, coded.data?.response_metadata?.retryAfter ?? 1) : null;
      return new SlackCallFailed(method, code, retry);
    }
    case ErrorCode.HTTPError:
      return new SlackCallFailed(method, 'unreachable', null, (error as Error).message);
    default:
      return new SlackCallFailed(method, 'unreachable', null, (error as Error)?.message ?? String(error));
  }
}

/**
 * One Web API call for `scope` (a workspace's team id; `oauth` or the token's own check before one is
 * known). Throws SlackCallFailed; never calls while the method's rate limit lasts.
 */
export async function callSlack<T>(
  scope: string,
  method: string,
  token: string | undefined,
  call: (client: WebClient) => Promise<T>,
): Promise<T> {
  const waiting = rateLimitRemaining(scope, method);
  if (waiting > 0) throw new SlackCallFailed(method, 'ratelimited', waiting, 'not called: the last call was rate limited');
  try {
    return await call(clientFor(token));
  } catch (error) {
    const failure = failureOf(method, error);
    if (failure.rateLimited) limitedUntil.set(gateKey(scope, method), now() + (failure.retryAfterSeconds ?? 1) * 1000);
    throw failure;
  }
}
