// The escalation engine (docs/api.md#escalation-and-notifications): pure, deterministic, no I/O. See SEMANTICS.md.
export * from './types';
export { advance, advanceAll, initialState, requiredTeamIds } from './advance';
export { InvalidEscalation, MissingTeamInputs } from './errors';
export { dueTimeouts, nextDueAt, openWorkflows, openWorkflowsOf, pendingTimers, workflowOf } from './queries';
export type { OpenWorkflow, PendingTimer } from './queries';
export { oncallFromSpans } from './oncall-inputs';
export { advanceWithLoader } from './with-loader';
export { layerTimeoutMs, scaled, USER_TIMEOUT_MS } from './timing';
