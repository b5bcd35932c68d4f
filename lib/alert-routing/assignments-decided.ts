// Where routing ends (issue 11): the alert's assignments are final and stored. Paging them is the
// escalation issue's; this is the one place that hands them on (called again, with the same
// assignments, when a routing message is redelivered, so what it calls must be idempotent per alert).
import type { AlertRecord, Assignment } from '../alerts/records';
import { logger } from '../log';

export async function assignmentsDecided(alert: AlertRecord, assignments: readonly Assignment[]): Promise<void> {
  logger.debug('routing: assignments decided', { alertId: alert.id, assignments: assignments.length });
}
