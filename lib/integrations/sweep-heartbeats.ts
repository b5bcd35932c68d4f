// The sweeper's heartbeat duty (docs/api.md#heartbeats): every heartbeat's state sits in the due index
// at or before its deadline (a beat moves the deadline on but not the entry, to stay one write), so
// no timer lives in a process and a crash loses nothing: whatever is due when a sweep runs is judged
// against the state as stored. Per entry: a deadline that beats moved on → the entry follows it; a
// deadline passed during a maintenance window of the integration → judged again when the window ends
// (the alert opens then if no beat came meanwhile); a deadline passed → ONE conditional claim of the
// miss (two sweeps racing: one wins), then its alert through the normal creation and routing path;
// a beat that came after the miss but whose resolve did not finish (a crash) → resolved here.
import { derivedUlid } from '../ids';
import { now as clockNow, timeScale } from '../clock';
import { logger } from '../log';
import { activeWindowsOf } from '../maintenance-windows/active-windows';
import { listDue } from '../store/due-index';
import {
  claimMiss,
  getHeartbeat,
  moveHeartbeatDue,
  parkHeartbeat,
  parseHeartbeatDueKey,
  removeHeartbeat,
  type HeartbeatState,
} from './heartbeat-store';
import { HEARTBEAT_TYPE_ID, heartbeatWindowMs, nextDueAt } from './heartbeat-options';
import { loadOnce } from '../load-once';

/** Opening and resolving a miss's alert (alert creation, transitions): loaded the first time a miss
 * needs it, so the sweeper does not start with the alert pipeline's code every minute. */
const missActions = /* @__PURE__ */ loadOnce(() => import('./heartbeats'));
import type { IntegrationRecord } from './records';
import { getIntegration } from './store';

const PER_SHARD = 200;
const CONCURRENCY = 8;

export interface HeartbeatSweep {
  due: number;
  opened: number;
  resolved: number;
  failed: number;
}

type Judgement = 'opened' | 'resolved' | 'waiting';

/** The alert of one missed deadline: the same id however often (and by whomever) the miss is judged. */
export function missedAlertId(integrationId: string, deadline: number): string {
  return derivedUlid(deadline, `heartbeat:${integrationId}:${deadline}`);
}

async function judgeMiss(integration: IntegrationRecord, state: HeartbeatState, now: number): Promise<Judgement> {
  const windowMs = heartbeatWindowMs(integration.options, timeScale());
  if (state.alert_id) {
    if ((state.last_beat_at ?? 0) > (state.missed_beat_at ?? 0)) {
      if (!state.alert_stored) await (await missActions()).openMissedAlert(integration, state, state.alert_id);
      const ended = await (await missActions()).endMiss(integration, { ...state, alert_stored: true });
      return ended ? 'resolved' : 'waiting';
    }
    // Still missing, its alert open (or resolved by a person): one alert per missed deadline. The
    // entry comes back a window later, for a beat whose resolve a crash cut short.
    if (!state.alert_stored) await (await missActions()).openMissedAlert(integration, state, state.alert_id);
    await moveHeartbeatDue(integration.account_id, integration.id, now + windowMs);
    return 'waiting';
  }
  const deadline = nextDueAt(state, windowMs);
  if (deadline > now) {
    await moveHeartbeatDue(integration.account_id, integration.id, deadline);
    return 'waiting';
  }
  const windows = await activeWindowsOf(integration.account_id, integration.id, now);
  if (windows.length > 0) {
    await moveHeartbeatDue(integration.account_id, integration.id, Math.max(...windows.map((w) => Date.parse(w.end_datetime))));
    return 'waiting';
  }
  const alertId = missedAlertId(integration.id, deadline);
  // Lost to another sweep or to a beat that came meanwhile: the entry is judged again as it now is.
  if (!(await claimMiss(state, alertId, now + windowMs))) return 'waiting';
  await (await missActions()).openMissedAlert(integration, { ...state, alert_id: alertId }, alertId);
  return 'opened';
}

async function judge(accountId: string, integrationId: string, now: number): Promise<Judgement> {
  const [state, integration] = await Promise.all([getHeartbeat(integrationId), getIntegration(accountId, integrationId)]);
  if (!state) return 'waiting';
  if (!integration || integration.integration_type_id !== HEARTBEAT_TYPE_ID) {
    await removeHeartbeat(integrationId);
    return 'waiting';
  }
  if (!integration.enabled) {
    await parkHeartbeat(integrationId);
    return 'waiting';
  }
  return judgeMiss(integration, state, now);
}

export async function sweepHeartbeats(options: { now?: number } = {}): Promise<HeartbeatSweep> {
  const now = options.now ?? clockNow();
  const due = (await listDue(now, PER_SHARD)).flatMap((entry) => {
    const heartbeat = parseHeartbeatDueKey(entry.what);
    return heartbeat ? [heartbeat] : [];
  });
  const result: HeartbeatSweep = { due: due.length, opened: 0, resolved: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const { accountId, integrationId } = due[next++];
      try {
        const judged = await judge(accountId, integrationId, now);
        if (judged === 'opened') result.opened += 1;
        if (judged === 'resolved') result.resolved += 1;
      } catch (error) {
        result.failed += 1;
        logger.warn('sweeper: heartbeat failed; the next sweep tries again', { integrationId, error: error as Error });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return result;
}
