// The routing step of a new alert (contract §6), run by functions/queue/routing-worker.ts for each
// {account_id, alert_id} message. Routers and escalation are not wired yet, so routing assigns the
// alert to its first destination team and first destination account user's user and records a
// 'routed' timeline entry. Idempotent: a routed alert is left alone, and a redelivered message
// finishes an attempt that stopped between its two writes.
import { newId } from '../ids';
import { getLog } from '../logs/store';
import { done, updateWithRetry } from '../store/retry';
import type { AlertRecord } from './records';
import type { RoutingMessage } from './routing-queue';
import { getAlert, getAlerts, saveAlert } from './store';
import { recordTimeline } from './timeline';
import { clearUnrouted } from './unrouted-store';

export type RoutingOutcome = 'routed' | 'already-routed' | 'absent';

function firstDestinationUser(alert: AlertRecord): string | null {
  for (const accountUserId of alert.destination_account_user_ids) {
    const userId = alert.destination_users[accountUserId];
    if (userId) return userId;
  }
  return null;
}

function routedEntry(alert: AlertRecord) {
  return {
    alert,
    action: 'routed' as const,
    oldStatus: alert.status,
    newStatus: alert.status,
    time: alert.routed_at!,
    details: {
      d_team_id: alert.assigned_team_id ? `tem_${alert.assigned_team_id}` : null,
      d_user_id: alert.assigned_user_id ? `usr_${alert.assigned_user_id}` : null,
    },
    id: alert.routing_log_id!,
  };
}

/** `prefetched`: the alert as the worker read it for the whole batch (its first attempt uses it; a
 * lost race re-reads, and the write is conditional on the version either way). */
export async function routeAlert(message: RoutingMessage, prefetched?: AlertRecord | null): Promise<RoutingOutcome> {
  return updateWithRetry<AlertRecord, RoutingOutcome>({
    load: (attempt) => (attempt === 0 && prefetched !== undefined ? prefetched : getAlert(message.account_id, message.alert_id)),
    edit: async (alert) => {
      if (!alert) return done('absent');
      if (alert.routed_at) {
        if (alert.routing_log_id && !(await getLog(alert.account_id, alert.routing_log_id))) {
          await recordTimeline(routedEntry(alert));
        }
        await clearUnrouted(alert.account_id, alert.id);
        return done('already-routed');
      }
      const now = new Date().toISOString();
      // A person may have handed the alert off before routing ran: their choice stands.
      const keepAssignment = alert.handoffs.length > 0;
      return {
        ...alert,
        assigned_team_id: keepAssignment ? alert.assigned_team_id : (alert.destination_team_ids[0] ?? null),
        assigned_user_id: keepAssignment ? alert.assigned_user_id : firstDestinationUser(alert),
        // The entry's id is stored with the change, so a retry knows which entry to finish.
        routed_at: now,
        routing_log_id: newId(),
        version: alert.version + 1,
        updated_at: now,
      };
    },
    save: (next, alert) => saveAlert(alert, next),
    saved: async (next) => {
      // The entry's id was made by this attempt and stored only just now: no entry can have it yet.
      await Promise.all([recordTimeline(routedEntry(next), { fresh: true }), clearUnrouted(next.account_id, next.id)]);
      return 'routed' as const;
    },
    exhausted: () => {
      throw new Error(`alert ${message.alert_id} kept changing while being routed`);
    },
  });
}

/** A queue batch's alerts, read together: one BatchGet per account instead of one read per record. */
export async function prefetchAlerts(messages: RoutingMessage[]): Promise<Map<string, AlertRecord | null>> {
  const byAccount = new Map<string, string[]>();
  for (const m of messages) byAccount.set(m.account_id, [...(byAccount.get(m.account_id) ?? []), m.alert_id]);
  const found = new Map<string, AlertRecord | null>(messages.map((m) => [m.alert_id, null]));
  await Promise.all(
    [...byAccount].map(async ([accountId, ids]) => {
      for (const alert of await getAlerts(accountId, ids)) found.set(alert.id, alert);
    }),
  );
  return found;
}
