// GET /v2/alerts/requests/:requestId of the Opsgenie drop-in (docs/api.md#opsgenie-alert-api-drop-in):
// what came of an accepted request, as Opsgenie's "Get Request Status" answers, so an SDK that
// creates and then needs the alert's id gets it. Flow: the GenieKey names the integration → the
// requestId spells the log's ULID → that integration's log of an Opsgenie request → its outcome.
// Read-only; a request still pending, unknown, or another integration's is Opsgenie's 404.
import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { JsonReply } from '../http/route-contract';
import { prefixId } from '../ids';
import type { OpsgenieError, OpsgenieRequestStatus } from './inbound-schemas';
import { getIncomingLog, type IncomingLog } from './ingest/incoming-log';
import { integrationOfKey, OPSGENIE_ADAPTER, refused, tookSince, ulidOfRequestId } from './opsgenie-alert-api';
import type { IntegrationRecord } from './records';
import { slugOf } from './represent';

export type OpsgenieStatusAnswer =
  JsonReply<200, z.input<typeof OpsgenieRequestStatus>> | JsonReply<401 | 403 | 404, z.input<typeof OpsgenieError>>;

type Status = z.input<typeof OpsgenieRequestStatus>['data'];

/** Opsgenie's action names for the drop-in's routes. */
const ACTIONS: Record<string, Status['action']> = {
  create: 'Create',
  close: 'Close',
  acknowledge: 'Acknowledge',
  message: 'UpdateMessage',
  description: 'UpdateDescription',
};

function verbOf(log: IncomingLog): string {
  const parts = (log.data.path ?? '/v2/alerts').split('/').filter(Boolean);
  return parts.length === 4 ? parts[3] : 'create';
}

/** One action's outcome as Opsgenie's status words: what happened, and whether it did what was asked. */
function outcomeOf(log: IncomingLog, verb: string): { success: boolean; status: string; alertId: string; alias: string } {
  const first = log.data.result?.actions?.[0] ?? {};
  const alertId = typeof first.alert_id === 'string' ? prefixId('alert', first.alert_id) : '';
  const alias = typeof first.thirdparty_id === 'string' ? first.thirdparty_id : '';
  const outcome = typeof first.outcome === 'string' ? first.outcome : '';
  if (log.status === 'failed') return { success: false, status: `Failed: ${log.reason ?? 'unknown'}`, alertId, alias };
  if (log.reason === 'maintenance_window') return { success: false, status: 'Ignored during a maintenance window', alertId, alias };
  if (verb === 'message' || verb === 'description') return { success: true, status: `Accepted, not applied: ${outcome}`, alertId, alias };
  switch (outcome) {
    case 'created':
    case 'already_created':
      return { success: true, status: 'Created alert', alertId, alias };
    case 'deduplicated':
      return { success: true, status: 'Alert deduplicated: counted onto the open alert', alertId, alias };
    case 'resolved':
      return { success: true, status: 'Closed alert', alertId, alias };
    case 'acknowledged':
      return { success: true, status: 'Acknowledged alert', alertId, alias };
    case 'no_alert':
      return { success: false, status: 'Alert does not exist', alertId, alias };
    default:
      return { success: false, status: outcome || 'Nothing done', alertId, alias };
  }
}

function statusOf(log: IncomingLog, integration: IntegrationRecord): Status {
  const verb = verbOf(log);
  const { success, status, alertId, alias } = outcomeOf(log, verb);
  return {
    success,
    action: ACTIONS[verb] ?? 'Create',
    processedAt: log.updated_at,
    integrationId: prefixId('integration', integration.id),
    isSuccess: success,
    status,
    alertId,
    alias,
  };
}

export async function opsgenieRequestStatus(
  requestId: string,
  request: { headers: Record<string, string>; receivedAt: number },
): Promise<OpsgenieStatusAnswer> {
  const { receivedAt } = request;
  const authenticated = await integrationOfKey(request.headers, receivedAt);
  if ('refused' in authenticated) return authenticated.refused;
  const { integration } = authenticated;
  const notFound = () => refused(404, 'Request not found: unknown, or not processed yet', receivedAt);

  const logId = ulidOfRequestId(requestId);
  const log = logId ? await getIncomingLog(integration.account_id, logId) : null;
  const ours = log?.type === 'integration' && log.subtype === 'INCOMING' && log.owner_id === prefixId('integration', integration.id);
  const opsgenie = log?.data.adapter === OPSGENIE_ADAPTER || slugOf(integration) === OPSGENIE_ADAPTER;
  if (!log || !ours || !opsgenie || log.status === 'pending') return notFound();
  // This answer's own request id, as Opsgenie gives every answer one; the one asked about is in the path.
  const ownId = randomUUID();
  return {
    status: 200,
    body: { data: statusOf(log, integration), took: tookSince(receivedAt), requestId: ownId },
    headers: { 'X-Request-ID': ownId },
  };
}
