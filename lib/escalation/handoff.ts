// POST /alert/:id/handoff {to} (docs/api.md#alert-transitions, docs/api.md#escalation-and-notifications): the hand-off itself (lib/alerts/handoff-alert.ts),
// then the new assignee is paged with template alert_handoff: an account user alone, a team through
// its policy from layer 1. The hand-off replaces the alert's running escalation (SEMANTICS.md).
import type { AlertRecord } from '../alerts/records';
import { handoffAlert } from '../alerts/handoff-alert';
import { getAlert } from '../alerts/store';
import type { Principal } from '../http/principal';
import { logger } from '../log';
import { startEscalation } from './start-escalation';

export async function handoffAndEscalate(principal: Principal, rawId: string, body: unknown): Promise<AlertRecord> {
  const { alert, assignee } = await handoffAlert(principal, rawId, body);
  // The hand-off stands even if paging fails here: answering 500 would make the caller hand off
  // twice. The failure is logged for the operators.
  await startEscalation({
    accountId: alert.account_id,
    alertId: alert.id,
    key: `handoff:${alert.handoffs.length}`,
    targets: [assignee],
    template: 'alert_handoff',
  }).catch((error) => logger.error('handoff: paging the new assignee failed', { error: error as Error, alertId: alert.id }));
  return (await getAlert(alert.account_id, alert.id)) ?? alert;
}
