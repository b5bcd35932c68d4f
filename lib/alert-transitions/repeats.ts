// Was a request applied already? A caller that checks a request before it asks for the transition
// (a one-click link's or an SMS reply's "is there anything to do?") asks this first, so that a request
// delivered again (its idempotency key) is answered as the first delivery was, not refused.
import type { AlertRecord } from '../alerts/records';
import { rejectedBefore } from '../escalation/reject-workflows';
import type { AlertAction } from './transition';

export async function appliedBefore(alert: AlertRecord, action: AlertAction, idempotencyKey: string): Promise<boolean> {
  if (action === 'reject') return rejectedBefore(alert.account_id, alert.id, idempotencyKey);
  return alert.transitions.some((mark) => mark.key === idempotencyKey);
}
