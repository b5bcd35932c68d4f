// The canary (README "Monitoring"): when CANARY_TEAM_ID and CANARY_ACCOUNT_ID name a team, an alert
// to it every 15 minutes through the whole pipeline (stored, routed by the routing worker, escalated
// and paged by the escalation engine and the providers), whose notifications are then checked: the
// first one sent gives the canary's time to page and CanarySucceeded; none by the deadline gives
// CanaryFailed. Either way the alert is resolved by the canary itself. The stack alarms when no
// canary succeeded for 30 minutes (missing data breaches), so a pipeline that silently stopped
// paging is noticed. Flow, once per sweeper run: read the canary item → check the alert it waits
// on (its notifications, through the alert's index) → record, resolve, clear → start the next one
// when 15 minutes (by the service's clock) passed since the last start.
import { now as clockNow } from '../clock';
import { config } from '../config';
import { insertNewAlert } from '../alerts/create-alert';
import type { Actor } from '../alerts/records';
import { resolveAlert } from '../alert-transitions/resolve';
import { HttpError } from '../http/errors';
import { newId } from '../ids';
import { logger } from '../log';
import { recordMetric } from '../metrics';
import { listNotificationsOfAlert } from '../notify/store';
import { getCanaryState, saveCanaryState, type CanaryState } from './canary-store';

/** A canary alert every this long. */
export const CANARY_INTERVAL_MS = 15 * 60_000;
/** The sweeper runs every minute, not on the dot: a start this much early still counts as due. */
const INTERVAL_SLACK_MS = 30_000;
/** A canary alert that paged nobody this long after its start has failed. */
export const CANARY_DEADLINE_MS = 10 * 60_000;
/** The notifications of one canary alert read at most (its team's people and channels). */
const NOTIFICATIONS_READ = 100;

/** Who creates and resolves the canary's alerts: an integration id of the canary's own (no integration
 * item exists), so its alerts and their timeline say where they came from. */
export const CANARY_ACTOR: Actor = { type: 'Integration', integrationId: '00000000000000000000CANARY' };

export type CanaryRun =
  | { canary: 'off' }
  | { canary: 'waiting'; alert_id: string }
  | { canary: 'checked' | 'started' | 'idle'; paged?: boolean; alert_id?: string };

/** One look at the canary: check the alert it waits on, start the next one when due. */
export async function runCanary(now = clockNow()): Promise<CanaryRun> {
  const { CANARY_TEAM_ID: teamId, CANARY_ACCOUNT_ID: accountId } = config();
  if (!teamId || !accountId) return { canary: 'off' };
  let state = await getCanaryState();
  let checked: { paged: boolean; alert_id: string } | null = null;
  if (state?.alert_id) {
    const outcome = await checkCanary(state, now);
    if (outcome === 'waiting') return { canary: 'waiting', alert_id: state.alert_id };
    checked = { paged: outcome === 'paged', alert_id: state.alert_id };
    const cleared = { account_id: state.account_id, alert_id: null, started_at: state.started_at };
    if (!(await saveCanaryState(cleared, state))) return { canary: 'checked', ...checked };
    state = { ...cleared, version: state.version + 1 };
  }
  if (state && now - state.started_at < CANARY_INTERVAL_MS - INTERVAL_SLACK_MS)
    return checked ? { canary: 'checked', ...checked } : { canary: 'idle' };
  const alertId = newId();
  // The claim comes first: a run beside this one (or a crash after it) starts no second alert; an
  // alert the crash left unstored pages nobody, and the next check records that as a failure.
  if (!(await saveCanaryState({ account_id: accountId, alert_id: alertId, started_at: now }, state))) return { canary: 'idle' };
  await insertNewAlert(
    accountId,
    {
      title: 'Canary: the on-call service checks that it pages',
      description: `Sent every ${CANARY_INTERVAL_MS / 60_000} minutes by the service itself (README "Monitoring") and resolved once it paged. Nothing to do.`,
      urgency: 'high',
      destination_team_ids: [teamId],
    },
    CANARY_ACTOR,
    { id: alertId, fresh: true },
  );
  return { canary: 'started', alert_id: alertId };
}

/** The waiting canary's outcome: paged (its time to page recorded), failed (past the deadline), or still waiting. */
async function checkCanary(state: CanaryState, now: number): Promise<'paged' | 'failed' | 'waiting'> {
  const alertId = state.alert_id!;
  const notifications = await listNotificationsOfAlert(state.account_id, alertId, { limit: NOTIFICATIONS_READ });
  const sent = notifications.flatMap((n) => (n.sent_at ? [Date.parse(n.sent_at)] : []));
  if (sent.length > 0) {
    recordMetric('canaryTimeToPage', Math.min(...sent) - state.started_at);
    recordMetric('canarySucceeded', 1);
  } else if (now - state.started_at < CANARY_DEADLINE_MS) {
    return 'waiting';
  } else {
    recordMetric('canaryFailed', 1);
    logger.warn('canary: its alert paged nobody by the deadline', { alertId, deadlineMinutes: CANARY_DEADLINE_MS / 60_000 });
  }
  await resolveCanary(state.account_id, alertId);
  return sent.length > 0 ? 'paged' : 'failed';
}

async function resolveCanary(accountId: string, alertId: string): Promise<void> {
  try {
    await resolveAlert(accountId, alertId, { actor: CANARY_ACTOR, rules: 'integration', idempotencyKey: `canary:${alertId}` });
  } catch (error) {
    // Resolved by someone already (409), or never stored (404): nothing left to resolve.
    if (!(error instanceof HttpError)) throw error;
  }
}
