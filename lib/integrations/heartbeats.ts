// Heartbeat integrations (docs/api.md#heartbeats, contract §15) apart from their beats and sweeps: their
// options checked on save, their state kept in step with the integration (armed when created or
// enabled, parked when disabled, removed with the integration or its type), the state as the
// integration shows it, and the alert of a miss opened and resolved the one way both the beat and
// the sweeper use.
import { insertNewAlert } from '../alerts/create-alert';
import type { Actor } from '../alerts/records';
import { resolveAlert } from '../alert-transitions/resolve';
import { now as clockNow } from '../clock';
import { HttpError, Invalid } from '../http/errors';
import { isHeartbeat, windowOf } from './integration-kinds';
import { heartbeatFaults, heartbeatStatus, nextDueAt, type HeartbeatStatus } from './heartbeat-options';
import {
  armHeartbeat,
  clearMiss,
  markAlertStored,
  moveHeartbeatDue,
  parkHeartbeat,
  removeHeartbeat,
  type HeartbeatState,
} from './heartbeat-store';
import type { IntegrationRecord } from './records';

/** Checks (and normalizes) a heartbeat's options as they will be stored; Invalid naming each fault. */
export function checkHeartbeat(record: Pick<IntegrationRecord, 'integration_type_id' | 'options'>): void {
  if (!isHeartbeat(record)) return;
  const faults = heartbeatFaults(record.options);
  if (faults.length > 0) throw new Invalid(faults);
}

const armed = (record: IntegrationRecord | null): record is IntegrationRecord => record !== null && isHeartbeat(record) && record.enabled;

/**
 * Keeps the state in step with an integration about to be stored (`before` null) or that was saved or
 * deleted (`after` null). A new heartbeat's state is written before the integration, so no stored
 * heartbeat is without its deadline; a changed window is due for a sweep at once, which moves it.
 */
export async function syncHeartbeat(before: IntegrationRecord | null, after: IntegrationRecord | null): Promise<void> {
  const record = after ?? before;
  if (!record || !((before && isHeartbeat(before)) || (after && isHeartbeat(after)))) return;
  const now = clockNow();
  if (!after || !isHeartbeat(after)) return removeHeartbeat(record.id);
  if (!after.enabled) {
    if (!before || !isHeartbeat(before)) await armHeartbeat(after.account_id, after.id, now, now + windowOf(after));
    return parkHeartbeat(after.id);
  }
  if (!armed(before)) return armHeartbeat(after.account_id, after.id, now, now + windowOf(after));
  if (windowOf(before) !== windowOf(after)) await moveHeartbeatDue(after.account_id, after.id, now);
}

export interface HeartbeatView {
  status: HeartbeatStatus;
  last_beat_at: number | null;
  next_due_at: number;
}

/** What the integration shows; a state not written yet (a crash between the two writes) counts from creation. */
export function heartbeatViewOf(record: IntegrationRecord, state: HeartbeatState | null | undefined, now = clockNow()): HeartbeatView {
  const clock = state ?? { armed_at: Date.parse(record.created_at), last_beat_at: null };
  const windowMs = windowOf(record);
  return { status: heartbeatStatus(clock, windowMs, now), last_beat_at: clock.last_beat_at, next_due_at: nextDueAt(clock, windowMs) };
}

const actorOf = (integration: IntegrationRecord): Actor => ({ type: 'Integration', integrationId: integration.id });

/** Opens the alert of a claimed miss (idempotent by its id: a repeat after a crash finds it), then says so on the state. */
export async function openMissedAlert(integration: IntegrationRecord, state: HeartbeatState, alertId: string): Promise<boolean> {
  const due = nextDueAt(state, windowOf(integration));
  const since = state.last_beat_at === null ? 'it was set up' : `the last beat at ${new Date(state.last_beat_at).toISOString()}`;
  const { created } = await insertNewAlert(
    integration.account_id,
    {
      title: `Heartbeat missed: ${integration.name}`,
      description: `No beat reached ${integration.name} since ${since}; one was due by ${new Date(due).toISOString()}.`,
      urgency: integration.urgency,
      destination_team_ids: integration.team_ids,
      destination_router_ids: integration.router_ids,
      destination_account_user_ids: integration.account_user_ids,
      destination_schedule_ids: integration.schedule_ids,
    },
    actorOf(integration),
    { id: alertId },
  );
  await markAlertStored(integration.id, alertId);
  return created;
}

/**
 * A beat came after the miss: resolve its alert (by the integration, as one request however often it
 * is asked: the beat and a sweep after a crash) and wait for the next deadline. False when the alert
 * is not stored yet (a sweep stores it, then resolves it).
 */
export async function endMiss(integration: IntegrationRecord, state: HeartbeatState): Promise<boolean> {
  if (!state.alert_id) return false;
  try {
    await resolveAlert(integration.account_id, state.alert_id, {
      actor: actorOf(integration),
      rules: 'integration',
      idempotencyKey: `heartbeat:${state.alert_id}:resolve`,
    });
  } catch (error) {
    // A person resolved it first (409), or deleted it (404): the miss is over all the same. An alert
    // not stored yet is the sweep's to store and resolve.
    if (!(error instanceof HttpError && (error.status === 409 || (error.status === 404 && state.alert_stored)))) {
      if (error instanceof HttpError && error.status === 404) return false;
      throw error;
    }
  }
  await clearMiss(state, nextDueAt(state, windowOf(integration)));
  return true;
}
