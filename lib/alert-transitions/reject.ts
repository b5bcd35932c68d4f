// Reject (docs/api.md#alert-transitions): only a person who holds an open notification workflow for
// the alert may reject it, from open. Their workflows close (only the one a one-click link names, so
// a retried reject cannot reject their next page) and, once no other workflow of the step stays open,
// the escalation moves on to the next layer at once; the alert stays open, or is dropped when no
// layer is left. That is escalation's step (lib/escalation/reject-workflows.ts); the timeline entry,
// written here, publishes alert.rejected. A repeat of a request with an idempotency key changes
// nothing and answers the alert as it is.
import type { AlertRecord } from '../alerts/records';
import { getAlert } from '../alerts/store';
import { recordTimeline } from '../alerts/timeline';
import { nowIso } from '../clock';
import { rejectedBefore, rejectWorkflows } from '../escalation/reject-workflows';
import { Conflict, NotFound } from '../http/errors';
import { derivedUlid, prefixId } from '../ids';
import { callOf, type TransitionRequest, type TransitionRules } from './request';
import { transitionConflict } from './transition';

export const REJECT_FROM: Partial<Record<TransitionRules, readonly AlertRecord['status'][]>> = { v4: ['open'], earlier: ['open'] };

export async function rejectAlert(
  accountId: string,
  alertId: string,
  request: TransitionRequest & {
    /** Only this workflow of the person (a one-click link names the page it was sent with). */
    onlyWorkflowId?: string;
  },
): Promise<AlertRecord> {
  const from = REJECT_FROM[request.rules] ?? [];
  const { actor } = request;
  const { key } = callOf(request);
  const [alert, repeated] = await Promise.all([
    getAlert(accountId, alertId),
    request.idempotencyKey !== undefined && actor.type === 'AccountUser' ? rejectedBefore(accountId, alertId, key) : false,
  ]);
  if (!alert) throw new NotFound('Alert not found');
  if (repeated) return alert;
  if (!from.includes(alert.status)) throw transitionConflict('reject', alert.status, from);
  const noWorkflow = () =>
    new Conflict(`Cannot reject: you have no open notification workflow for this alert (the alert is ${alert.status})`);
  if (actor.type !== 'AccountUser') throw noWorkflow();

  // Taken before the step, so the entry sorts before the drop it may cause.
  const time = nowIso();
  const rejected = await rejectWorkflows(accountId, alertId, actor.accountUserId, {
    onlyWorkflowId: request.onlyWorkflowId,
    requestKey: key,
  });
  if (rejected.outcome === 'no_workflow') throw noWorkflow();
  const after = (await getAlert(accountId, alertId)) ?? alert;
  if (rejected.outcome === 'repeated') return after;
  if (rejected.outcome === 'closed_meanwhile') {
    if (!from.includes(after.status) && after.status !== 'dropped') throw transitionConflict('reject', after.status, from);
    throw new Conflict(`Cannot reject: your notification workflow for this alert was closed meanwhile (the alert is ${after.status})`);
  }
  const mine = rejected.workflowIds;
  await recordTimeline({
    alert: after,
    action: 'rejected',
    actor,
    oldStatus: alert.status,
    newStatus: after.status,
    time,
    id: derivedUlid(Date.parse(time) - 1, `reject/${alertId}/${mine.join(',')}`),
    details: { workflow_id: prefixId('workflow', mine[0]), workflow_ids: mine.map((id) => prefixId('workflow', id)) },
  });
  return after;
}
