// Storm protection's flush (lib/notify/storm.ts) with escalation's answer to "is this page still
// wanted?": a page whose workflow closed (acknowledged, rejected, timed out) meanwhile, or whose
// alert is no longer open, is cancelled instead of sent; other notifications always go out. A
// bundle that failed fails its pages over (failover-signal.ts).
import { getAlerts } from '../alerts/store';
import type { RateLimitedChannel } from '../notify/content';
import type { NotificationRecord } from '../notify/records';
import { flushRateLimited, type FlushOutcome } from '../notify/storm';
import { openWorkflows } from './engine';
import { reportFailedMessages } from './failover-signal';
import { getEscalation } from './store';

async function stillWanted(accountId: string, notifications: NotificationRecord[]): Promise<Set<string>> {
  const pages = notifications.filter((n) => n.workflow_id);
  const alertIds = [...new Set(pages.map((n) => n.alert_id).filter((id): id is string => Boolean(id)))];
  // An alert's workflows live in its escalation item (open there before any page of theirs went out).
  const [alerts, escalations] = await Promise.all([
    getAlerts(accountId, alertIds),
    Promise.all(alertIds.map((alertId) => getEscalation(accountId, alertId))),
  ]);
  const openAlerts = new Set(alerts.filter((a) => a.status === 'open').map((a) => a.id));
  const open = new Set(escalations.flatMap(({ state }) => (state ? openWorkflows(state).map((w) => w.workflowId) : [])));
  return new Set(
    notifications
      .filter((n) => !n.workflow_id || (open.has(n.workflow_id) && n.alert_id !== null && openAlerts.has(n.alert_id)))
      .map((n) => n.id),
  );
}

export function flushWaiting(accountId: string, accountUserId: string, channel: RateLimitedChannel): Promise<FlushOutcome> {
  return flushRateLimited(
    accountId,
    accountUserId,
    channel,
    (notifications) => stillWanted(accountId, notifications),
    reportFailedMessages,
  );
}
