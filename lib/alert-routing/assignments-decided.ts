// Where routing ends (issue 11): the alert's assignments are final and stored, and they start
// escalating (issue 12): every team runs its escalation policy, every account user is paged alone,
// side by side; one with a delay starts after it (÷ TIME_SCALE, kept in the escalation's state).
// Called again, with the same assignments, when a routing message is redelivered: the start is
// idempotent per alert (its key). A hand-off made before routing ran stands: it started its own
// escalation then.
import type { AlertRecord, Assignment } from '../alerts/records';
import { startEscalation } from '../escalation/start-escalation';
import { logger } from '../log';

/** `fresh`: the caller stored this decision just now (not a redelivery finishing an earlier one's work). */
export async function assignmentsDecided(alert: AlertRecord, assignments: readonly Assignment[], fresh = false): Promise<void> {
  logger.debug('routing: assignments decided', { alertId: alert.id, assignments: assignments.length });
  if (assignments.length === 0 || alert.handoffs.length > 0 || alert.status !== 'open') return;
  await startEscalation({
    accountId: alert.account_id,
    alertId: alert.id,
    key: `route:${alert.id}`,
    targets: assignments.map((a) => ({ type: a.type, id: a.id, delay_ms: a.delay_ms })),
    // The routing has just saved it (or read it, redelivered): the first step does not read it again.
    alert,
    // A decision stored just now for an open alert never handed off: its escalation is most likely
    // not started, so the start does not read the item first (its commit checks that none is there).
    presumeNone: fresh,
  });
}
