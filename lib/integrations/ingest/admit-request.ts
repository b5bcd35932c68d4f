// What every inbound request must pass before it is stored (docs/api.md#inbound-webhooks): the
// integration's token (403), the body's size (413) and its token bucket (429). Shared by the webhook
// path (receive-webhook.ts) and the beats of heartbeat integrations (receive-beat.ts).
import type * as z from 'zod';
import { now } from '../../clock';
import { config } from '../../config';
import { sameSecret } from '../../auth/passwords';
import { Forbidden, PayloadTooLarge, TooManyRequests } from '../../http/errors';
import { MAX_BODY_BYTES } from '../../http/request';
import type { InboundAccepted } from '../inbound-schemas';
import type { IntegrationRecord } from '../records';
import { takeToken, type BucketLimits } from './token-bucket';

export interface InboundRequest {
  rawId: string;
  /** The body as stored: the text as received, or base64 when `bodyEncoding` says so. */
  body: string;
  /** `base64`: the body was not UTF-8 text (binary), so it is kept as base64 rather than mangled. */
  bodyEncoding?: 'base64';
  /** Size of the body as received, in bytes (default: the UTF-8 length of `body`). */
  bytes?: number;
  headers: Record<string, string>;
  query: string;
  receivedAt: number;
  sourceIp: string;
}

/** The 202's body: the stored request's log id (and why it was ignored, when it was). */
export type InboundAnswer = z.input<typeof InboundAccepted>;

/**
 * The token bucket of an integration (issue: burst and sustained rate). Its own
 * `rate_limit_burst` / `rate_limit_per_minute` options win over INGEST_RATE_LIMIT_BURST /
 * INGEST_RATE_LIMIT_PER_MINUTE; one that sets only its own rate gets a burst of one minute at that
 * rate (at most the default burst), so "2 per minute" means what it says.
 */
export function rateLimitsOf(integration: Pick<IntegrationRecord, 'options'>): BucketLimits {
  const settings = config();
  const ownRate = Number(integration.options.rate_limit_per_minute) || 0;
  const ownBurst = Number(integration.options.rate_limit_burst) || 0;
  const perMinute = ownRate || settings.INGEST_RATE_LIMIT_PER_MINUTE;
  const burst = ownBurst || (ownRate ? Math.min(settings.INGEST_RATE_LIMIT_BURST, ownRate) : settings.INGEST_RATE_LIMIT_BURST);
  return { burst, perMinute, timeScale: settings.TIME_SCALE };
}

/** What every inbound request must pass before it is stored: 403 token, 413 size, 429 rate. */
export async function admitRequest(integration: IntegrationRecord, request: Omit<InboundRequest, 'rawId'>): Promise<void> {
  const token = typeof integration.options.token === 'string' ? integration.options.token : '';
  if (token !== '' && !sameSecret(request.headers['pagertree-token'] ?? '', token)) {
    throw new Forbidden('The pagertree-token header is missing or wrong');
  }
  if ((request.bytes ?? Buffer.byteLength(request.body, 'utf8')) > MAX_BODY_BYTES) throw new PayloadTooLarge();

  const limits = rateLimitsOf(integration);
  // The limiter's own clock, not the request's arrival stamp: a request that waited (a busy event
  // loop, a cold start) must not look early to a bucket whose burst lasts milliseconds.
  const limited = await takeToken(integration.id, limits, now());
  if (limited) {
    throw new TooManyRequests(
      limited.retryAfterSeconds,
      `Too many requests for this integration (burst ${limits.burst}, ${limits.perMinute} per minute)`,
    );
  }
}
