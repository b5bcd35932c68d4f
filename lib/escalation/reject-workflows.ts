// Escalation's part of a reject (docs/api.md#alert-transitions; the transition is
// lib/alert-transitions/reject.ts): the person's open workflows of the alert, as the escalation state
// holds them, close `rejected`, and the step moves on at once when no other workflow of it stays open.
// The step remembers the request's key (run-step.ts), so the same request applied twice rejects once.
import { openWorkflowsOf, workflowOf } from './engine';
import { runStep } from './run-step';
import { getEscalation } from './store';

export type RejectOutcome =
  | { outcome: 'rejected'; workflowIds: string[] }
  /** A request with this key was applied before: nothing changed now. */
  | { outcome: 'repeated' }
  /** The person holds no open workflow (of the one asked for) for the alert. */
  | { outcome: 'no_workflow' }
  /** Their workflows closed between the read and the step (a timeout, an acknowledgement). */
  | { outcome: 'closed_meanwhile' };

/**
 * A page's workflow as the alert's escalation holds it (one-click links, SMS replies): open, closed
 * with its step's status, or null once its step moved on (or it was never this alert's). The state
 * item is where a workflow lives: it is open there before any of its pages goes out.
 */
export async function pageWorkflow(accountId: string, alertId: string, workflowId: string): Promise<ReturnType<typeof workflowOf>> {
  const { state } = await getEscalation(accountId, alertId);
  return state ? workflowOf(state, workflowId) : null;
}

/** Was a reject with this key applied to the alert's escalation (among the last keys it keeps)? */
export async function rejectedBefore(accountId: string, alertId: string, requestKey: string): Promise<boolean> {
  return (await getEscalation(accountId, alertId)).requests.includes(requestKey);
}

/**
 * Rejects the person's open workflows of the alert (only `onlyWorkflowId` when given: a one-click
 * link names the page it came with, so a retried reject cannot reject their next page).
 */
export async function rejectWorkflows(
  accountId: string,
  alertId: string,
  accountUserId: string,
  options: { onlyWorkflowId?: string; requestKey: string },
): Promise<RejectOutcome> {
  const stored = await getEscalation(accountId, alertId);
  if (stored.requests.includes(options.requestKey)) return { outcome: 'repeated' };
  const mine = (stored.state ? openWorkflowsOf(stored.state, accountUserId) : [])
    .map((w) => w.workflowId)
    .filter((id) => options.onlyWorkflowId === undefined || id === options.onlyWorkflowId);
  if (mine.length === 0) return { outcome: 'no_workflow' };
  const result = await runStep(accountId, alertId, {
    kind: 'event',
    event: { type: 'reject', accountUserId, workflowIds: mine },
    requestKey: options.requestKey,
  });
  if (result.repeated) return { outcome: 'repeated' };
  if (result.ignored) return { outcome: 'closed_meanwhile' };
  return { outcome: 'rejected', workflowIds: mine };
}
