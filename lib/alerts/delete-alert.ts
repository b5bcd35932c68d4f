// DELETE /api/v4/alerts/:id, /alert/:id and the views' deletes: the alert, its index entries and
// counters go; its timeline stays (with a 'deleted' entry), so what happened remains on record.
import type { Principal } from '../auth/principal';
import { NotFound } from '../http/errors';
import { actorOf } from './actor';
import { findAlert } from './read-alerts';
import type { AlertView } from './list-source';
import { removeAlert } from './store';
import { recordTimeline } from './timeline';

export async function deleteAlert(principal: Principal, rawId: string, view?: AlertView): Promise<void> {
  const alert = await findAlert(principal, rawId, view);
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
