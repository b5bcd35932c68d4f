// What acknowledge, resolve and archive share: ONE conditional write on the alert's status
// (lib/alerts/store.ts changeStatus), its timeline entry (which publishes the webhook event) and the
// caller's escalation work beside it, and the answer when the write did not apply: 404 for an
// absent alert, 409 naming the status it is in. Of 50 concurrent acknowledges exactly one applies.
// A change that applied but whose answer was lost, or a repeat of a request (its idempotency key),
// is answered with the alert as that change left it, and written, logged and published once.
import { nowIso } from '../clock';
import { Conflict, NotFound } from '../http/errors';
import { teamsOf, type AlertRecord, type AlertStatus } from '../alerts/records';
import { countAcknowledgement } from '../notify/page-count-store';
import { changeStatus, getAlert } from '../alerts/store';
import { actorPrefixId, recordTimeline, TIMELINE_ENTRY_COUNT, type TimelineAction } from '../alerts/timeline';
import { raced, retryWhileRaced } from '../store/retry';
import { callOf, type TransitionRequest, type TransitionRules } from './request';

export type AlertAction = 'acknowledge' | 'resolve' | 'reject' | 'archive';

/** A transition that is one status change of the alert record. */
export interface StatusTransition {
  action: Exclude<AlertAction, 'reject'>;
  /** The statuses it starts from under each interface's rules; absent: never allowed there. */
  from: Partial<Record<TransitionRules, readonly AlertStatus[]>>;
  to: AlertStatus;
  /** Its timeline entry (outgoing webhooks publish it: alert.acknowledged, alert.resolved). */
  logged: TimelineAction;
  /** The attributes it sets besides the status (`who`: the actor's prefix id). */
  fields(who: string, now: string): { set?: Record<string, unknown>; setOnce?: Record<string, unknown> };
}

/** The pages report counts the person who first acknowledged an alert (acknowledged_at set now). */
function countFirstAcknowledgement(before: AlertRecord, after: AlertRecord, request: TransitionRequest): Promise<void> | undefined {
  if (before.acknowledged_at || !after.acknowledged_at || request.actor.type !== 'AccountUser') return undefined;
  return countAcknowledgement(after.account_id, request.actor.accountUserId, Date.parse(after.acknowledged_at), teamsOf(after));
}

function listed(statuses: readonly AlertStatus[]): string {
  if (statuses.length <= 1) return statuses[0] ?? 'nothing';
  return `${statuses.slice(0, -1).join(', ')} or ${statuses[statuses.length - 1]}`;
}

/** The 409 of an action the alert's status does not allow. */
export function transitionConflict(action: AlertAction | 'hand off', status: AlertStatus, from: readonly AlertStatus[]): Conflict {
  return new Conflict(
    from.length === 0
      ? `Cannot ${action} this alert here: the alert is ${status}`
      : `Cannot ${action} an alert that is ${status}: the alert must be ${listed(from)}`,
  );
}

/** Why a conditional transition did not apply: absent (404), or another status (409); null when the
 * status allows it again (a hand-off reopened it meanwhile). */
async function explainRefusal(accountId: string, alertId: string, action: AlertAction, from: readonly AlertStatus[]) {
  const current = await getAlert(accountId, alertId);
  if (!current) return new NotFound('Alert not found');
  if (!from.includes(current.status)) return transitionConflict(action, current.status, from);
  return null;
}

/**
 * Applies a status transition for one request and answers the alert as the change left it. Throws
 * NotFound, or Conflict (409) naming the current status. `alongside` runs once the change is made,
 * beside its timeline entry (escalation's stop), and again for a repeat of the request, so that a
 * repeat too is answered only once what the change requires is done. `written`: `after` is the alert
 * as this call's write has just left it (false for a repeat: the alert may have moved on since).
 */
export async function applyTransition(
  accountId: string,
  alertId: string,
  transition: StatusTransition,
  request: TransitionRequest,
  alongside?: (after: AlertRecord, written: boolean) => Promise<void>,
): Promise<AlertRecord> {
  const from = transition.from[request.rules] ?? [];
  const now = nowIso();
  const call = callOf(request);
  const { set, setOnce } = transition.fields(actorPrefixId(request.actor), now);
  // A refusal is explained by reading the alert; if by then it is back in an allowed status (a
  // handoff reopened it), the write is tried again rather than answering a confusing 409.
  return retryWhileRaced(
    3,
    async () => {
      const change =
        from.length === 0
          ? ({ outcome: 'refused' } as const)
          : await changeStatus(accountId, alertId, {
              from,
              to: transition.to,
              now,
              request: call,
              set,
              setOnce,
              counts: TIMELINE_ENTRY_COUNT,
              alongside: async (before, after) => {
                await Promise.all([
                  recordTimeline(
                    {
                      alert: after,
                      action: transition.logged,
                      actor: request.actor,
                      oldStatus: before.status,
                      newStatus: after.status,
                      time: now,
                    },
                    { counted: true },
                  ),
                  alongside?.(after, true),
                  countFirstAcknowledgement(before, after, request),
                ]);
              },
            });
      if (change.outcome === 'applied') return change.after;
      if (change.outcome === 'repeated') {
        await alongside?.(change.after, false);
        return change.after;
      }
      const refusal = await explainRefusal(accountId, alertId, transition.action, from);
      if (refusal) throw refusal;
      return raced();
    },
    () => {
      throw new Conflict('The alert was changed by other requests meanwhile; try again');
    },
  );
}
