// DELETE /api/v4/alerts/:id, /alert/:id and the views' deletes: the alert, its index entries and
// counters go; its timeline stays (with a 'deleted' entry), so what happened remains on record.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { dedupKey, markAlertStored } from './dedup-store';
import { requireRole } from '../auth/permissions';
import { actorOf } from './actor';
import { BROADCAST_VIEW, findAlert } from './read-alerts';
import type { AlertView } from './list-source';
import { removeAlert } from './store';
import { recordTimeline } from './timeline';

export async function deleteAlert(principal: Principal, rawId: string, view?: AlertView): Promise<void> {
  const alert = await findAlert(principal, rawId, view);
  if (alert.source_type === 'Integration' && alert.thirdparty_id) {
    // First tell the sender's dedup item that this alert existed: once it is gone, the next create
    // from the sender starts a new alert instead of counting onto one "still being created".
    await markAlertStored(dedupKey(alert.account_id, alert.source_id, alert.thirdparty_id), alert.id);
  }
  const removed = await removeAlert(principal.accountId, alert.id);
  if (!removed) throw new NotFound('Alert not found');
  await recordTimeline({
    alert: removed,
    action: 'deleted',
    actor: actorOf(principal),
    oldStatus: removed.status,
    newStatus: null,
    time: new Date().toISOString(),
  });
}

/** DELETE /broadcast/:id: needs the admin or broadcaster role (docs/api.md#roles). */
export async function deleteBroadcast(principal: Principal, rawId: string): Promise<void> {
  requireRole(principal, ['admin', 'broadcaster'], 'delete broadcasts');
  await deleteAlert(principal, rawId, BROADCAST_VIEW);
}
