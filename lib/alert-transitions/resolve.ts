// Resolve (docs/api.md#alert-transitions): from open, dropped or acknowledged (the earlier interface:
// acknowledged; an integration: as v4) to resolved, with resolved_at and resolved_by. Like
// acknowledge, it stops every escalation of the alert before the answer (stop-escalation.ts). The
// timeline entry publishes alert.resolved.
import type { AlertRecord } from '../alerts/records';
import { stopEscalation } from '../escalation/stop-escalation';
import type { TransitionRequest } from './request';
import { applyTransition, type StatusTransition } from './transition';

export const RESOLVE: StatusTransition = {
  action: 'resolve',
  from: {
    v4: ['open', 'dropped', 'acknowledged'],
    earlier: ['acknowledged'],
    integration: ['open', 'dropped', 'acknowledged'],
  },
  to: 'resolved',
  logged: 'resolved',
  fields: (who, now) => ({ set: { resolved_at: now, resolved_by: who } }),
};

export function resolveAlert(accountId: string, alertId: string, request: TransitionRequest): Promise<AlertRecord> {
  return applyTransition(accountId, alertId, RESOLVE, request, (after, written) =>
    stopEscalation(accountId, alertId, 'resolve', written ? after : undefined),
  );
}
