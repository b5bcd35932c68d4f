// Inbound webhook (docs/api.md#inbound-webhooks). Flow: find the integration by id alone → refuse (404 unknown, 405
// disabled, 403 token, 413 size, 429 rate) → store the request as a log → queue its id → 202.
// No alert work happens here: the answer only waits for the log write and the queue send, and a
// failed send is not the sender's problem (the log stays pending and the sweeper re-sends it).
import type * as z from 'zod';
import { now } from '../../clock';
import { config } from '../../config';
import { sameSecret } from '../../auth/passwords';
import { isOutgoingWebhook } from '../outgoing-webhooks';
import { Forbidden, MethodNotAllowed, NotFound, PayloadTooLarge, TooManyRequests } from '../../http/errors';
import { MAX_BODY_BYTES } from '../../http/request';
import { parseId, prefixId } from '../../ids';
import { logger } from '../../log';
import { activeWindowsOf } from '../../maintenance-windows/active-windows';
import { integrationById } from '../integration-cache';
import type { InboundAccepted } from '../inbound-schemas';
import type { IntegrationRecord } from '../records';
import { markDueNow, storeIncomingLog, type IncomingLog } from './incoming-log';
import { sendToIngestQueue } from './ingest-queue';
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

export async function receiveWebhook(request: InboundRequest): Promise<InboundAnswer> {
  const id = parseId('integration', request.rawId);
  const integration = id ? await integrationById(id) : null;
  if (!integration) throw new NotFound('Integration not found');
  if (!integration.enabled) throw new MethodNotAllowed('Integration is disabled');
  if (isOutgoingWebhook(integration))
    throw new MethodNotAllowed('This integration sends alert events (outgoing webhook); it receives nothing');
  const { log, ignored } = await acceptRequest(integration, request);
  return { log_id: prefixId('log', log.id), ...(ignored ? { ignored } : {}) };
}

/**
 * The part every inbound route shares once it has an enabled integration: refuse (403 token, 413
 * size, 429 rate), then store the request as a log (ignored during a maintenance window) and queue
 * it. `adapter` records the payload format when it is not the integration type's (`/v2/enqueue`).
 */
export async function acceptRequest(
  integration: IntegrationRecord,
  request: Omit<InboundRequest, 'rawId'>,
  options: { adapter?: string } = {},
): Promise<{ log: IncomingLog; ignored?: 'maintenance_window' }> {
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

  const stored = {
    integrationId: integration.id,
    accountId: integration.account_id,
    body: request.body,
    bodyEncoding: request.bodyEncoding,
    bytes: request.bytes,
    adapter: options.adapter,
    headers: request.headers,
    query: request.query,
    receivedAt: request.receivedAt,
    sourceIp: request.sourceIp,
  };
  const windows = await activeWindowsOf(integration.account_id, integration.id, request.receivedAt);
  if (windows.length > 0) {
    const log = await storeIncomingLog(stored, {
      status: 'ignored',
      reason: 'maintenance_window',
      result: { maintenance_window_ids: windows.map((w) => w.id) },
    });
    return { log, ignored: 'maintenance_window' };
  }

  const log = await storeIncomingLog(stored, { status: 'pending' });
  try {
    await sendToIngestQueue({ account_id: log.account_id, log_id: log.id });
  } catch (error) {
    logger.warn('ingest queue send failed; the sweeper will re-send the log', { logId: log.id, error: error as Error });
    // Due at once rather than after the grace period: nothing else will bring it to a worker.
    await markDueNow(log).catch(() => undefined);
  }
  return { log };
}
