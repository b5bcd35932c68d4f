// Inbound webhook (contract §9). Flow: find the integration by id alone → refuse (404 unknown, 405
// disabled, 403 token, 413 size, 429 rate) → store the request as a log → queue its id → 202.
// No alert work happens here: the answer only waits for the log write and the queue send, and a
// failed send is not the sender's problem (the log stays pending and the sweeper re-sends it).
import { config } from '../../config';
import { sameSecret } from '../../auth/passwords';
import { isOutgoingWebhook } from '../outgoing-webhooks';
import { Forbidden, MethodNotAllowed, NotFound, PayloadTooLarge, TooManyRequests } from '../../http/errors';
import { MAX_BODY_BYTES } from '../../http/request';
import { parseId, prefixId } from '../../ids';
import { logger } from '../../log';
import { activeWindowsOf } from '../../maintenance-windows/active-windows';
import { integrationById } from '../integration-cache';
import { storeIncomingLog } from './incoming-log';
import { sendToIngestQueue } from './ingest-queue';
import { takeRateLimit } from './rate-limit';

export interface InboundRequest {
  rawId: string;
  body: string;
  headers: Record<string, string>;
  query: string;
  receivedAt: number;
  sourceIp: string;
}

export interface InboundAnswer {
  log_id: string;
  ignored?: 'maintenance_window';
}

export async function receiveWebhook(request: InboundRequest): Promise<InboundAnswer> {
  const id = parseId('integration', request.rawId);
  const integration = id ? await integrationById(id) : null;
  if (!integration) throw new NotFound('Integration not found');
  if (!integration.enabled) throw new MethodNotAllowed('Integration is disabled');
  if (isOutgoingWebhook(integration))
    throw new MethodNotAllowed('This integration sends alert events (outgoing webhook); it receives nothing');

  const token = typeof integration.options.token === 'string' ? integration.options.token : '';
  if (token !== '' && !sameSecret(request.headers['pagertree-token'] ?? '', token)) {
    throw new Forbidden('The pagertree-token header is missing or wrong');
  }
  if (Buffer.byteLength(request.body, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLarge();

  const limit = Number(integration.options.rate_limit_per_minute) || config().INGEST_RATE_LIMIT_PER_MINUTE;
  const limited = await takeRateLimit(integration.id, limit, request.receivedAt);
  if (limited) throw new TooManyRequests(limited.retryAfterSeconds, `Too many requests for this integration (limit ${limit} per minute)`);

  const stored = {
    integrationId: integration.id,
    accountId: integration.account_id,
    body: request.body,
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
    return { log_id: prefixId('log', log.id), ignored: 'maintenance_window' };
  }

  const log = await storeIncomingLog(stored, { status: 'pending' });
  try {
    await sendToIngestQueue({ account_id: log.account_id, log_id: log.id });
  } catch (error) {
    logger.warn('ingest queue send failed; the sweeper will re-send the log', { logId: log.id, error: error as Error });
  }
  return { log_id: prefixId('log', log.id) };
}
