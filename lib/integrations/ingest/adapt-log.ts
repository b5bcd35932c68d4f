// A stored request → the adapter's actions (pure; the same for every attempt at one log).
import { prefixId } from '../../ids';
import { adaptPayload, type AdapterAction } from '../adapters';
import type { IntegrationRecord } from '../records';
import { slugOf } from '../represent';
import type { IncomingLog } from './incoming-log';

/** The request as the adapter reads it. UptimeRobot may post its variables as a query string with
 * an empty body: that query string is then the (form-encoded) body. */
function requestOf(log: IncomingLog): { body: string; headers: Record<string, string> } {
  const body = log.data.body ?? '';
  const query = log.data.query ?? '';
  if (body.trim() === '' && query !== '') {
    return { body: query, headers: { ...log.data.headers, 'content-type': 'application/x-www-form-urlencoded' } };
  }
  return { body, headers: log.data.headers ?? {} };
}

/** Throws UnreadablePayload (the body) or UnknownIntegrationType (the configuration). */
export function adaptLog(log: IncomingLog, integration: IntegrationRecord): AdapterAction[] {
  const request = requestOf(log);
  return adaptPayload(slugOf(integration), {
    body: request.body,
    headers: request.headers,
    logId: prefixId('log', log.id),
    receivedAt: Date.parse(log.created_at),
    integration: { id: integration.id, urgency: integration.urgency, options: integration.options },
  });
}
