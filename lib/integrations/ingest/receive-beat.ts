// A beat of a heartbeat integration (docs/api.md#heartbeats): any GET or POST to its inbound address.
// Flow: the inbound refusals every request passes (403 token, 413 size, 429 rate) → ONE conditional
// write of the beat's time (lib/integrations/heartbeat-store.ts) → when it ends a miss, the miss's
// alert resolved by the integration → the request logged as processed (no queue: nothing is left to
// do) → 202. The body is ignored and not kept. A beat during a maintenance window still counts: the
// window silences the alert, not the evidence that the sender is alive.
import { now } from '../../clock';
import { MethodNotAllowed, Unauthorized } from '../../http/errors';
import { parseId, prefixId } from '../../ids';
import { integrationById } from '../integration-cache';
import { armHeartbeat, recordBeat, type HeartbeatState } from '../heartbeat-store';
import { isHeartbeat, windowOf } from '../integration-kinds';
import { loadOnce } from '../../load-once';
import type { IntegrationRecord } from '../records';
import { storeIncomingLog } from './incoming-log';
import { admitRequest, type InboundAnswer, type InboundRequest } from './admit-request';

// A beat that ends a miss resolves its alert, which stops the escalation (its engine and the rule
// engine): loaded the first time a beat does, not at the inbound function's start.
const loadHeartbeats = /* @__PURE__ */ loadOnce(() => import('../heartbeats'));

/** The beat's write; a state never written (a crash between the integration's writes) is armed first. */
async function beat(integration: IntegrationRecord, at: number): Promise<HeartbeatState | null> {
  const state = await recordBeat(integration.id, at);
  if (state) return state;
  await armHeartbeat(integration.account_id, integration.id, at, at + windowOf(integration));
  return recordBeat(integration.id, at);
}

export async function receiveBeat(
  integration: IntegrationRecord,
  request: Omit<InboundRequest, 'rawId'>,
  method: 'GET' | 'POST',
): Promise<InboundAnswer> {
  await admitRequest(integration, request);
  // The service's clock, as the sweeper judges deadlines by it.
  const at = now();
  const state = await beat(integration, at);
  let outcome = 'recorded';
  if (state?.alert_id && (state.last_beat_at ?? 0) > (state.missed_beat_at ?? 0)) {
    const { endMiss } = await loadHeartbeats();
    outcome = (await endMiss(integration, state)) ? 'resolved' : 'recorded (the missed alert is resolved by the next sweep)';
  }
  const bytes = request.bytes ?? Buffer.byteLength(request.body, 'utf8');
  const log = await storeIncomingLog(
    {
      integrationId: integration.id,
      accountId: integration.account_id,
      body: '',
      headers: request.headers,
      query: request.query,
      receivedAt: request.receivedAt,
      sourceIp: request.sourceIp,
    },
    {
      status: 'processed',
      result: {
        actions: [{ action: 'beat', outcome, beat_at: new Date(at).toISOString() }],
        alert_ids: outcome === 'resolved' && state?.alert_id ? [state.alert_id] : [],
      },
    },
    { content: `Heartbeat to ${prefixId('integration', integration.id)} (${method}, body of ${bytes} bytes ignored)` },
  );
  return { log_id: prefixId('log', log.id) };
}

/**
 * `GET /integration/{id}` without credentials: a beat when the id names a heartbeat integration;
 * anything else stays what it was, the earlier interface's read without credentials (401).
 */
export async function receiveBeatById(request: InboundRequest, method: 'GET'): Promise<InboundAnswer> {
  const id = parseId('integration', request.rawId);
  const integration = id ? await integrationById(id) : null;
  if (!integration || !isHeartbeat(integration)) throw new Unauthorized();
  if (!integration.enabled) throw new MethodNotAllowed('Integration is disabled');
  return receiveBeat(integration, request, method);
}
