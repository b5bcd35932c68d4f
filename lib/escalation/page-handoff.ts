// The escalation of a hand-off (docs/api.md#alert-transitions, docs/api.md#escalation-and-notifications):
// the new assignee is paged with template alert_handoff, an account user alone, a team through its
// policy from layer 1, and the hand-off replaces the alert's running escalation (SEMANTICS.md). The
// step runs here; its pages go out through the escalation worker (run-step.ts StepOptions).
import type { AlertRecord } from '../alerts/records';
import { logger } from '../log';
import { runStep } from './run-step';

export type HandoffAssignee = { type: 'account_user'; id: string } | { type: 'team'; id: string };

/** Pages the new assignee of an alert just handed off (its handoffs end with this hand-off). */
export async function pageHandoffAssignee(alert: AlertRecord, assignee: HandoffAssignee): Promise<void> {
  // Handed off while acknowledged: the acknowledgement's stop (recorded before its 200, or by the
  // escalation worker should that have failed) is recorded first if it is not yet, so its workflows
  // close `acknowledged`.
  if (alert.handoffs[alert.handoffs.length - 1]?.acknowledged)
    await runStep(alert.account_id, alert.id, { kind: 'event', event: { type: 'acknowledge' } });
  // The hand-off stands even if paging fails here: answering 500 would make the caller hand off
  // twice. The failure is logged for the operators.
  await runStep(alert.account_id, alert.id, {
    kind: 'start',
    key: `handoff:${alert.handoffs.length}`,
    targets: [assignee],
    template: 'alert_handoff',
  }).catch((error) => logger.error('handoff: paging the new assignee failed', { error: error as Error, alertId: alert.id }));
}
