// Read-only questions about an escalation state, for the store (the due index), the sweeper
// (which timers are due) and the API (may this person reject?).
import { deliveryToken } from './advance';
import type { EscalationState, TimeoutEvent } from './types';

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
