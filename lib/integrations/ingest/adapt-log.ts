// A stored request → the adapter's actions (pure; the same for every attempt at one log).
import { prefixId } from '../../ids';
import { adaptPayload, UnreadablePayload, type AdapterAction } from '../adapters';
import type { IntegrationRecord } from '../records';
import { slugOf } from '../represent';
import type { IncomingLog } from './incoming-log';

/** The request as the adapter reads it. UptimeRobot may post its variables as a query string with
 * an empty body: that query string is then the (form-encoded) body. */
function requestOf(log: IncomingLog): { body: string; headers: Record<string, string> } {
  const body = log.data.body ?? '';
  const query = log.data.query ?? '';
  // A drop-in route's query string is its own parameters (Opsgenie's identifierType), never a body.
  if (body.trim() === '' && query !== '' && !log.data.path) {
    return { body: query, headers: { ...log.data.headers, 'content-type': 'application/x-www-form-urlencoded' } };
  }
  return { body, headers: log.data.headers ?? {} };
}

/** Throws UnreadablePayload (the body) or UnknownIntegrationType (the configuration). */
export function adaptLog(log: IncomingLog, integration: IntegrationRecord): AdapterAction[] {
  if (log.data.body_encoding === 'base64') {
    throw new UnreadablePayload('the body is binary, not UTF-8 text (it is kept in this log as base64)');
  }
  const request = requestOf(log);
  // A body of another format than the integration type's (/v2/enqueue) ignores the type's wrapper_key.
  const { wrapper_key: _wrapperKey, ...otherOptions } = integration.options;
  return adaptPayload(log.data.adapter ?? slugOf(integration), {
    body: request.body,
    headers: request.headers,
    logId: prefixId('log', log.id),
    receivedAt: Date.parse(log.created_at),
    ...(log.data.path ? { route: { path: log.data.path, query: log.data.query ?? '' } } : {}),
    integration: { id: integration.id, urgency: integration.urgency, options: log.data.adapter ? otherOptions : integration.options },
  });
}
