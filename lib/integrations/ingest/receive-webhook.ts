// Inbound webhook (docs/api.md#inbound-webhooks). Flow: find the integration by id alone → refuse (404 unknown, 405
// disabled, 403 token, 413 size, 429 rate: admit-request.ts) → store the request as a log → queue its id → 202.
// A heartbeat integration's request is a beat instead (receive-beat.ts).
// No alert work happens here: the answer only waits for the log write and the queue send, and a
// failed send is not the sender's problem (the log stays pending and the sweeper re-sends it).
import { MethodNotAllowed, NotFound } from '../../http/errors';
import { parseId, prefixId } from '../../ids';
import { logger } from '../../log';
import { activeWindowsOf } from '../../maintenance-windows/active-windows';
import { isHeartbeat, isOutgoingWebhook } from '../integration-kinds';
import { isLiveCall } from '../live-calls';
import { integrationById } from '../integration-cache';
import type { IntegrationRecord } from '../records';
import { admitRequest, type InboundAnswer, type InboundRequest } from './admit-request';
import { markDueNow, storeIncomingLog, type IncomingLog } from './incoming-log';
import { ingestMessageOf, sendToIngestQueue } from './ingest-queue';
import { receiveBeat } from './receive-beat';

export { rateLimitsOf, type InboundAnswer, type InboundRequest } from './admit-request';

export async function receiveWebhook(request: InboundRequest): Promise<InboundAnswer> {
  const id = parseId('integration', request.rawId);
  const integration = id ? await integrationById(id) : null;
  if (!integration) throw new NotFound('Integration not found');
  if (!integration.enabled) throw new MethodNotAllowed('Integration is disabled');
  if (isOutgoingWebhook(integration))
    throw new MethodNotAllowed('This integration sends alert events (outgoing webhook); it receives nothing');
  if (isLiveCall(integration)) throw new MethodNotAllowed('This integration answers phone calls (live_call); it receives no webhooks');
  if (isHeartbeat(integration)) return receiveBeat(integration, request, 'POST');
  const { log, ignored } = await acceptRequest(integration, request);
  return { log_id: prefixId('log', log.id), ...(ignored ? { ignored } : {}) };
}

/**
 * The part every inbound route shares once it has an enabled integration: refuse (403 token, 413
 * size, 429 rate), then store the request as a log (ignored during a maintenance window) and queue
 * it. `adapter` records the payload format when it is not the integration type's (`/v2/enqueue`), and
 * `path` the drop-in route whose verb and identifier that adapter reads (Opsgenie's `/v2/alerts/…`).
 */
export async function acceptRequest(
  integration: IntegrationRecord,
  request: Omit<InboundRequest, 'rawId'>,
  options: { adapter?: string; path?: string } = {},
): Promise<{ log: IncomingLog; ignored?: 'maintenance_window' }> {
  await admitRequest(integration, request);
  const stored = {
    integrationId: integration.id,
    accountId: integration.account_id,
    body: request.body,
    bodyEncoding: request.bodyEncoding,
    bytes: request.bytes,
    adapter: options.adapter,
    path: options.path,
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
    await sendToIngestQueue(ingestMessageOf(log));
  } catch (error) {
    logger.warn('ingest queue send failed; the sweeper will re-send the log', { logId: log.id, error: error as Error });
    // Due at once rather than after the grace period: nothing else will bring it to a worker.
    await markDueNow(log).catch(() => undefined);
  }
  return { log };
}
