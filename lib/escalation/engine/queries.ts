// Read-only questions about an escalation state, for the store (the due index), the sweeper
// (which timers are due) and the API (may this person reject?).
import { deliveryToken } from './advance';
import type { EscalationState, TimeoutEvent, WorkflowStatus } from './types';

export interface PendingTimer {
  assignmentId: string;
  token: string;
  dueAt: number;
}

/** Every timer the state waits on: each step's timeout and each open workflow's next delivery. */
export function pendingTimers(state: EscalationState): PendingTimer[] {
  if (state.outcome !== 'escalating') return [];
  const timers: PendingTimer[] = [];
  for (const assignment of state.assignments) {
    const step = assignment.step;
    if (assignment.status !== 'escalating' || !step) continue;
    timers.push({ assignmentId: assignment.id, token: step.token, dueAt: step.dueAt });
    for (const workflow of step.workflows) {
      if (workflow.status !== 'open' || workflow.delivered >= workflow.plan.length) continue;
      const dueAt = step.pagedAt + workflow.plan[workflow.delivered].at_offset_ms;
      if (dueAt < step.dueAt) timers.push({ assignmentId: assignment.id, token: deliveryToken(assignment, step, workflow), dueAt });
    }
  }
  return timers.sort((a, b) => a.dueAt - b.dueAt || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
}

/** When the state next needs a step (the sparse due index), or null when nothing waits. */
export function nextDueAt(state: EscalationState): number | null {
  const timers = pendingTimers(state);
  return timers.length ? timers[0].dueAt : null;
}

/** The timeout events due at `at`, in due order: what the sweeper applies (advanceAll) for a lost timer. */
export function dueTimeouts(state: EscalationState, at: number): TimeoutEvent[] {
  return pendingTimers(state)
    .filter((timer) => timer.dueAt <= at)
    .map((timer) => ({ type: 'timeout', at, token: timer.token }));
}

export interface OpenWorkflow {
  workflowId: string;
  assignmentId: string;
  accountUserId: string;
}

export function openWorkflows(state: EscalationState): OpenWorkflow[] {
  if (state.outcome !== 'escalating') return [];
  return state.assignments.flatMap((assignment) =>
    assignment.status === 'escalating' && assignment.step
      ? assignment.step.workflows
          .filter((workflow) => workflow.status === 'open')
          .map((workflow) => ({ workflowId: workflow.id, assignmentId: assignment.id, accountUserId: workflow.accountUserId }))
      : [],
  );
}

/** Reject (docs/api.md#alert-transitions) needs the caller to hold an open workflow of the alert, else 409. */
export function openWorkflowsOf(state: EscalationState, accountUserId: string): OpenWorkflow[] {
  return openWorkflows(state).filter((workflow) => workflow.accountUserId === accountUserId);
}

/**
 * A page's workflow as the state holds it (one-click links, SMS replies, storm flushes: the page names
 * it): `open` as reject counts it (openWorkflows), else the status its step closed it with while the
 * step is still the assignment's, else null (its step moved on, or it was never this alert's).
 */
export function workflowOf(
  state: EscalationState,
  workflowId: string,
): { accountUserId: string; status: WorkflowStatus | 'closed' } | null {
  const open = openWorkflows(state).find((workflow) => workflow.workflowId === workflowId);
  if (open) return { accountUserId: open.accountUserId, status: 'open' };
  for (const assignment of state.assignments) {
    const workflow = assignment.step?.workflows.find((w) => w.id === workflowId);
    // Open in a step that no longer escalates (an acknowledgement's stop not yet applied to it): not open.
    if (workflow) return { accountUserId: workflow.accountUserId, status: workflow.status === 'open' ? 'closed' : workflow.status };
  }
  return null;
}
