// What kind of integration a record is, by its type's slug. Every inbound request asks (a heartbeat's
// request is a beat, an outgoing webhook or a live call's number receives nothing), so the questions
// sit apart from what each kind does: heartbeats.ts resolves a miss's alert through the escalation's
// stop, outgoing-webhooks.ts keeps the alert event subscribers, and importing either put the
// escalation engine, the rule engine and the outbound address guard in the inbound function's start.
import { timeScale } from '../clock';
import { HEARTBEAT_SLUG, heartbeatWindowMs } from './heartbeat-options';
import { findIntegrationType } from './integration-types';
import { OUTGOING_WEBHOOK_SLUG } from './outgoing-webhook-options';
import type { IntegrationRecord } from './records';

export function isHeartbeat(record: Pick<IntegrationRecord, 'integration_type_id'>): boolean {
  return findIntegrationType(record.integration_type_id)?.slug === HEARTBEAT_SLUG;
}

/** The window of a heartbeat as it runs here ((interval + grace) ÷ TIME_SCALE, ms): every beat arms it. */
export const windowOf = (record: Pick<IntegrationRecord, 'options'>) => heartbeatWindowMs(record.options, timeScale());

export function isOutgoingWebhook(record: Pick<IntegrationRecord, 'integration_type_id'>): boolean {
  return findIntegrationType(record.integration_type_id)?.slug === OUTGOING_WEBHOOK_SLUG;
}
