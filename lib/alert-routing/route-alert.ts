// The routing step of a new alert (docs/api.md#alerts, docs/api.md#routers-and-automations), run by functions/queue/routing-worker.ts for
// each {account_id, alert_id} message:
//   decide (decide-routing.ts) → ONE versioned write of the alert with everything routing changes
//   (setval, incident, stakeholders, status suppressed/dropped, parent_id, assignments, the decision)
//   → the timeline (one entry per router, then the outcome) → assignmentsDecided → automations.
// Idempotent under redelivery: the decision is stored with the alert's changes, so a redelivered
// message finds the alert routed and only finishes what may be missing (timeline entries have ids
// derived from the alert, automations are claimed before they run); setval, aggregate and automation
// never apply twice. A person's handoff before routing ran keeps its assignee.
import type { AlertRecord, RoutingDecision } from '../alerts/records';
import { assigneesOf, decidedAtCreate } from '../alerts/direct-routing';
import { creationEntries, creatorOf, packedRouting, routingOutcomeId, routingTimelineEntries } from '../alerts/routing-timeline';
import type { RoutingMessage } from '../alerts/routing-queue';
import { getAlert, getAlerts, saveAlert } from '../alerts/store';
import { recordTimeline, recordTimelinePack, timelineEntriesCount } from '../alerts/timeline';
import { clearUnrouted } from '../alerts/unrouted-store';
import { clock } from '../clock';
import { config } from '../config';
import { newId, parsePrefixedId } from '../ids';
import type { AlertChanges, RoutingContext } from '../rule-engine';
import { withCountsDeferred } from '../store/deferred-counts';
import { done, updateWithRetry } from '../store/retry';
import { assignmentsDecided } from './assignments-decided';
import { decideRouting, routingContextOf, storableRouting, type Decision } from './decide-routing';
import { runRoutedAutomations } from './run-automations';

export type RoutingOutcome = 'routed' | 'already-routed' | 'absent';

function applyChanges(alert: AlertRecord, changes: AlertChanges): AlertRecord {
  const next = { ...alert };
  if (changes.title !== undefined) next.title = changes.title;
  if (changes.description !== undefined) next.description = changes.description;
  if (changes.urgency !== undefined) next.urgency = changes.urgency as AlertRecord['urgency'];
  if (changes.tags !== undefined) next.tag_list = [...changes.tags];
  if (changes.meta) next.meta = { ...alert.meta, ...changes.meta };
  if (changes.stakeholder_ids)
    next.stakeholder_ids = [...new Set([...alert.stakeholder_ids, ...changes.stakeholder_ids.map(storedStakeholder)])];
  return next;
}

/** Stakeholders (stk_) are kept as ULIDs, as the earlier interface shows them; a person (usr_, acu_) keeps its prefix id. */
function storedStakeholder(id: string): string {
  const parsed = parsePrefixedId(id);
  return parsed?.kind === 'stakeholder' ? parsed.id : id;
}

function routedAlert(current: AlertRecord, decision: Decision, now: string): AlertRecord {
  const changed = applyChanges(current, decision.changes);
  // A person may have handed the alert off before routing ran: their choice stands.
  const keepAssignee = current.handoffs.length > 0;
  const toStatus = current.status === decision.routing.from_status ? decision.routing.to_status : current.status;
  return {
    ...changed,
    status: toStatus,
    parent_id: decision.parent_id ?? current.parent_id,
    assignments: decision.assignments,
    ...(keepAssignee
      ? { assigned_team_id: current.assigned_team_id, assigned_user_id: current.assigned_user_id }
      : assigneesOf(decision.assignments)),
    routing: { ...storableRouting(decision.routing), from_status: current.status, to_status: toStatus },
    routed_at: now,
    // One per decision made: two deliveries deciding in the same millisecond must not store the same
    // item, or the loser takes the winner's save for its own whose answer was lost (saveAlert) and
    // counts the decision a second time.
    routing_log_id: routingOutcomeId(Date.parse(now), `route:${current.id}:outcome:${newId()}`),
    version: current.version + 1,
    updated_at: now,
  };
}

/**
 * Everything after the decision is stored: idempotent. `fresh`: this call stored the decision just
 * now, so no earlier attempt wrote an entry (the puts need no condition and share a BatchWrite). The
 * entries were counted by the decision's write (routeAlert), so a redelivery finishing beside this
 * call writes them without counting them again.
 */
async function finishRouting(
  alert: AlertRecord,
  context: RoutingContext | null,
  fresh: boolean,
  fullHops?: RoutingDecision['hops'],
): Promise<void> {
  if (!alert.routing) return;
  if (decidedAtCreate(alert)) {
    // Its create wrote the routing's entry with its `created` entry (one item) before it sent its
    // message: that message's first delivery finds it written; any other (the sweeper's, a retried
    // create's) makes sure, restoring both should the create have stopped before them.
    if (!fresh) await recordTimelinePack(creationEntries(alert, creatorOf(alert)), { counted: true, fresh: false });
  } else {
    const entries = routingTimelineEntries(alert, fullHops);
    if (entries.length > 1 && packedRouting(alert.routing_log_id)) await recordTimelinePack(entries, { counted: true, fresh });
    // Side by side: fresh entries share one grouped BatchWrite.
    else await Promise.all(entries.map((entry) => recordTimeline(entry, { counted: true, fresh })));
  }
  await assignmentsDecided(alert, alert.assignments, fresh);
  if (alert.routing.automations.length > 0) {
    await runRoutedAutomations(alert, context ?? (await routingContextOf(alert)));
  }
  // Routing is done: the alert leaves the index of alerts the sweeper would re-drive.
  await clearUnrouted(alert.account_id, alert.id);
}

/**
 * `prefetched`: the alert as the worker read it for the whole batch (attempt 0 uses it);
 * `firstDelivery`: the message's first delivery (ApproximateReceiveCount 1). The counts of
 * the whole routing (the decision's save with its timeline entries, and the first escalation step's
 * fan-out) are written summed at its end: one update of the alert counters instead of two.
 */
export function routeAlert(message: RoutingMessage, prefetched?: AlertRecord | null, firstDelivery = false): Promise<RoutingOutcome> {
  return withCountsDeferred(() => routeAlertNow(message, prefetched, firstDelivery));
}

async function routeAlertNow(
  message: RoutingMessage,
  prefetched: AlertRecord | null | undefined,
  firstDelivery: boolean,
): Promise<RoutingOutcome> {
  const first = prefetched !== undefined ? prefetched : await getAlert(message.account_id, message.alert_id);
  if (!first) return 'absent';
  if (first.routed_at) {
    // Decided by its create (lib/alerts/direct-routing.ts): the create's own message, delivered the
    // first time, finds nothing of the routing written yet, as a decision stored just now.
    const fresh = firstDelivery && message.decided === true && decidedAtCreate(first);
    await finishRouting(first, null, fresh);
    return fresh ? 'routed' : 'already-routed';
  }
  const decision = await decideRouting(first, clock.now(), config().TIME_SCALE);
  let context: RoutingContext | null = decision.context;
  return updateWithRetry<AlertRecord, RoutingOutcome>({
    load: (attempt) => (attempt === 0 ? first : getAlert(message.account_id, message.alert_id)),
    edit: async (alert) => {
      if (!alert) return done('absent');
      if (alert.routed_at) {
        // Another delivery of the same message won the race: it finishes; this one makes sure.
        await finishRouting(alert, null, false);
        return done('already-routed');
      }
      return routedAlert(alert, decision, new Date(clock.now()).toISOString());
    },
    // The timeline entries are counted with the decision, once: whichever delivery writes them.
    save: (next, alert) => saveAlert(alert, next, timelineEntriesCount(routingTimelineEntries(next).length)),
    saved: async (next) => {
      // Automations see the alert as routing left it (setval and incident applied).
      if (context && next.routing?.automations.length) context = { ...context, alert: { ...context.alert, ...pickChanged(next) } };
      // The first attempt writes the timeline from the decision itself: rendered values kept whole.
      await finishRouting(next, context, true, decision.routing.hops);
      return 'routed' as const;
    },
    exhausted: () => {
      throw new Error(`alert ${message.alert_id} kept changing while being routed`);
    },
  });
}

function pickChanged(alert: AlertRecord): Record<string, unknown> {
  return {
    title: alert.title,
    description: alert.description,
    urgency: alert.urgency,
    tags: alert.tag_list,
    tag_list: alert.tag_list,
    meta: alert.meta,
  };
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
