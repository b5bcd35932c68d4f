// POST /api/v4/alerts/:id/{acknowledge,resolve,reject} and POST /alert/:id/{acknowledge,reject,
// resolve,archive}, an integration's acknowledge and resolve, and one-click responses: the alert's
// transition (lib/alerts/transitions.ts, one conditional write on its status) and its escalation.
// Acknowledge and resolve stop every escalation of the alert before they answer: after the
// transition they wait for a step still paging (stop-escalation.ts), so no page goes out after the
// 200; the stop itself is recorded by the escalation worker. Reject (docs/api.md#alert-transitions) closes the caller's open
// workflow and moves the escalation on at once when no other workflow of that step stays open.
import type { Actor, AlertRecord } from '../alerts/records';
import { actorOf } from '../alerts/actor';
import { resolveAlertId } from '../alerts/read-alerts';
import { getAlert } from '../alerts/store';
import { recordTimeline } from '../alerts/timeline';
import { TRANSITION_RULES, transitionAlert, transitionConflict, type AlertAction, type TransitionRules } from '../alerts/transitions';
import { nowIso } from '../clock';
import { Conflict, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import type { ApiInterface } from '../http/request';
import { derivedUlid, prefixId } from '../ids';
import { openWorkflowsOf } from './engine';
import { runStep } from './run-step';
import { stopEscalation } from './stop-escalation';
import { getEscalation } from './store';

export async function actOnAlert(principal: Principal, rawId: string, action: AlertAction, iface: ApiInterface): Promise<AlertRecord> {
  const id = await resolveAlertId(principal.accountId, rawId);
  if (!id) throw new NotFound('Alert not found');
  const rules: TransitionRules = iface === 'v4' ? 'v4' : 'earlier';
  if (action === 'reject') return rejectAlert(principal.accountId, id, actorOf(principal), rules);
  return transitionAndEscalate(principal.accountId, id, action, actorOf(principal), rules);
}

/** The transition, then (acknowledge, resolve) the stop of every escalation of the alert. */
export async function transitionAndEscalate(
  accountId: string,
  alertId: string,
  action: Exclude<AlertAction, 'reject'>,
  actor: Actor,
  rules: TransitionRules,
): Promise<AlertRecord> {
  // The stop reads the escalation's lease once the transition is written, beside its timeline entry.
  const stop = action === 'acknowledge' || action === 'resolve' ? () => stopEscalation(accountId, alertId, action) : undefined;
  return transitionAlert(accountId, alertId, action, actor, rules, stop);
}

/**
 * Reject (docs/api.md#alert-transitions): only the caller's open workflows (as the escalation state holds them, or the one a
 * one-click link names), so a retried reject cannot reject the caller's next page.
 */
export async function rejectAlert(
  accountId: string,
  alertId: string,
  actor: Actor,
  rules: TransitionRules,
  onlyWorkflowId?: string,
): Promise<AlertRecord> {
  const from = TRANSITION_RULES[rules].reject ?? [];
  const alert = await getAlert(accountId, alertId);
  if (!alert) throw new NotFound('Alert not found');
  if (!from.includes(alert.status)) throw transitionConflict('reject', alert.status, from);
  const noWorkflow = () =>
    new Conflict(`Cannot reject: you have no open notification workflow for this alert (the alert is ${alert.status})`);
  if (actor.type !== 'AccountUser') throw noWorkflow();
  const stored = await getEscalation(accountId, alertId);
  const mine = (stored.state ? openWorkflowsOf(stored.state, actor.accountUserId) : [])
    .map((w) => w.workflowId)
    .filter((id) => onlyWorkflowId === undefined || id === onlyWorkflowId);
  if (mine.length === 0) throw noWorkflow();

  // Taken before the step, so the entry sorts before the drop it may cause.
  const time = nowIso();
  const result = await runStep(accountId, alertId, {
    kind: 'event',
    event: { type: 'reject', accountUserId: actor.accountUserId, workflowIds: mine },
  });
  const after = (await getAlert(accountId, alertId)) ?? alert;
  if (result.ignored) {
    if (!from.includes(after.status) && after.status !== 'dropped') throw transitionConflict('reject', after.status, from);
    throw new Conflict(`Cannot reject: your notification workflow for this alert was closed meanwhile (the alert is ${after.status})`);
  }
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
