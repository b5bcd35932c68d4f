// State transitions of an alert (docs/api.md#alert-transitions), under the rules of the interface that asked.
// Each one is a single conditional write on the alert's status (lib/alerts/store.ts changeStatus):
// of 50 concurrent acknowledges exactly one applies, and a lost race is a 409 naming the status.
import { nowIso } from '../clock';
import { Conflict, NotFound } from '../http/errors';
import { parseId, prefixId, ulidTime } from '../ids';
import type { Actor, AlertRecord, AlertStatus } from './records';
import { raced, retryWhileRaced } from '../store/retry';
import { changeStatus, getAlert, raiseDedup } from './store';
import { actorPrefixId, derivedUlid, recordTimeline, TIMELINE_ENTRY_COUNT, type TimelineAction } from './timeline';

export type AlertAction = 'acknowledge' | 'resolve' | 'reject' | 'archive';
export type TransitionRules = 'v4' | 'earlier' | 'integration';

/** The statuses each action starts from, per interface. An action absent here is never allowed. */
export const TRANSITION_RULES: Record<TransitionRules, Partial<Record<AlertAction, readonly AlertStatus[]>>> = {
  v4: {
    acknowledge: ['open', 'dropped', 'suppressed'],
    resolve: ['open', 'dropped', 'acknowledged'],
    reject: ['open'],
  },
  earlier: {
    acknowledge: ['open', 'dropped'],
    resolve: ['acknowledged'],
    reject: ['open'],
    archive: ['resolved', 'dropped'],
  },
  // An integration may resolve from open (docs/api.md#integrations), and acknowledges as v4 does.
  integration: {
    acknowledge: ['open', 'dropped', 'suppressed'],
    resolve: ['open', 'dropped', 'acknowledged'],
  },
};

const TARGET: Record<AlertAction, AlertStatus> = {
  acknowledge: 'acknowledged',
  resolve: 'resolved',
  reject: 'open',
  archive: 'archived',
};

const PAST: Record<AlertAction, TimelineAction> = {
  acknowledge: 'acknowledged',
  resolve: 'resolved',
  reject: 'rejected',
  archive: 'archived',
};

function listed(statuses: readonly AlertStatus[]): string {
  if (statuses.length <= 1) return statuses[0] ?? 'nothing';
  return `${statuses.slice(0, -1).join(', ')} or ${statuses[statuses.length - 1]}`;
}

export function transitionConflict(action: AlertAction | 'hand off', status: AlertStatus, from: readonly AlertStatus[]): Conflict {
  return new Conflict(
    from.length === 0
      ? `Cannot ${action} this alert here: the alert is ${status}`
      : `Cannot ${action} an alert that is ${status}: the alert must be ${listed(from)}`,
  );
}

function fieldsOf(action: AlertAction, who: string, now: string) {
  switch (action) {
    case 'acknowledge':
      return { set: { acknowledged_by: who }, setOnce: { acknowledged_at: now } };
    case 'resolve':
      return { set: { resolved_at: now, resolved_by: who } };
    case 'archive':
      return { set: { archived_at: now, archived_by: who } };
    case 'reject':
      return {};
  }
}

/** Reads why a conditional transition did not apply: absent (404), or another status (409). */
export async function explainRefusal(accountId: string, alertId: string, action: AlertAction, from: readonly AlertStatus[]) {
  const current = await getAlert(accountId, alertId);
  if (!current) return new NotFound('Alert not found');
  if (!from.includes(current.status)) return transitionConflict(action, current.status, from);
  return null;
}

/**
 * One conditional write on status+version: the write applies only while the status allows the
 * action, and raises the version, so every read-modify-write that read the alert before it must
 * re-read (lib/alerts/store.ts changeStatus). Throws NotFound, or Conflict (409) naming the current
 * status. `afterWrite` runs once the write applied, beside its timeline entry (escalation's stop).
 */
export async function transitionAlert(
  accountId: string,
  alertId: string,
  action: AlertAction,
  actor: Actor,
  rules: TransitionRules,
  afterWrite?: (after: AlertRecord) => Promise<void>,
): Promise<AlertRecord> {
  const from = TRANSITION_RULES[rules][action] ?? [];
  // Reject moves escalation on: lib/escalation/act-on-alert.ts does it with the engine.
  if (action === 'reject') throw new Error("reject is escalation's: use lib/escalation/act-on-alert.ts");
  const now = nowIso();
  const who = actorPrefixId(actor);
  // A refusal is explained by reading the alert; if by then it is back in an allowed status (a
  // handoff reopened it), the write is tried again rather than answering a confusing 409.
  return retryWhileRaced(
    3,
    async () => {
      const applied =
        from.length === 0
          ? null
          : await changeStatus(accountId, alertId, {
              from,
              to: TARGET[action],
              now,
              ...fieldsOf(action, who, now),
              counts: TIMELINE_ENTRY_COUNT,
              alongside: async (before, after) => {
                await Promise.all([
                  recordTimeline(
                    { alert: after, action: PAST[action], actor, oldStatus: before.status, newStatus: after.status, time: now },
                    { counted: true },
                  ),
                  afterWrite?.(after),
                ]);
              },
            });
      if (applied) return applied.after;
      const refusal = await explainRefusal(accountId, alertId, action, from);
      if (refusal) throw refusal;
      return raced();
    },
    () => {
      throw new Conflict('The alert was changed by other requests meanwhile; try again');
    },
  );
}

/**
 * dedup_count = max(dedup_count, atLeast) by a conditional write (idempotent for redeliveries),
 * plus a timeline log. `logId` (ULID or `log_…`) names the inbound request that was the duplicate:
 * its timeline entry then has an id derived from it, so a redelivery writes it at most once.
 */
export async function raiseDedupCount(accountId: string, alertId: string, atLeast: number, logId?: string): Promise<AlertRecord | null> {
  const now = nowIso();
  const raised = await raiseDedup(accountId, alertId, atLeast, now);
  const alert = raised ?? (await getAlert(accountId, alertId));
  if (!alert) return null;
  const inbound = logId ? parseId('log', logId) : null;
  if (raised || inbound) {
    const actor: Actor | undefined =
      alert.source_type === 'Integration' ? { type: 'Integration', integrationId: alert.source_id } : undefined;
    await recordTimeline({
      alert,
      action: 'deduplicated',
      actor,
      oldStatus: alert.status,
      newStatus: alert.status,
      time: now,
      details: { dedup_count: Math.max(alert.dedup_count, atLeast), log_id: inbound ? prefixId('log', inbound) : null },
      id: inbound ? derivedUlid(ulidTime(inbound), `dedup:${alertId}:${inbound}`) : undefined,
    });
  }
  return alert;
}
