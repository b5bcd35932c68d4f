// Acknowledge (docs/api.md#alert-transitions): from open, dropped or suppressed (the earlier interface:
// open or dropped) to acknowledged; acknowledged_by is the actor, acknowledged_at only the first time.
// Every escalation of the alert stops before the answer: once the write is made, the stop waits for a
// step that is paging (lib/escalation/stop-escalation.ts), so no page goes out after the 200; the
// stop is then recorded there too (or by the escalation worker, should that fail). The timeline entry publishes alert.acknowledged.
import type { AlertRecord } from '../alerts/records';
import { stopEscalation } from '../escalation/stop-escalation';
import type { TransitionRequest } from './request';
import { applyTransition, type StatusTransition } from './transition';

export const ACKNOWLEDGE: StatusTransition = {
  action: 'acknowledge',
  from: {
    v4: ['open', 'dropped', 'suppressed'],
    earlier: ['open', 'dropped'],
    integration: ['open', 'dropped', 'suppressed'],
  },
  to: 'acknowledged',
  logged: 'acknowledged',
  fields: (who, now) => ({ set: { acknowledged_by: who }, setOnce: { acknowledged_at: now } }),
};

export function acknowledgeAlert(accountId: string, alertId: string, request: TransitionRequest): Promise<AlertRecord> {
  return applyTransition(accountId, alertId, ACKNOWLEDGE, request, (after, written) =>
    stopEscalation(accountId, alertId, 'acknowledge', written ? after : undefined),
  );
}
