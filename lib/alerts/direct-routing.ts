// Routing decided at create (issue 21, write budget; docs/ARCHITECTURE.md "Write budget per alert
// life"). An alert whose destinations are teams and people only (no router, no schedule) leaves
// routing nothing to look up: its decision is those destinations, in the order routing takes them
// (lib/alert-routing/decide-routing.ts, which takes them from here too). Such an alert is inserted with
// the decision stored, and its `routed` entry is written with its `created` entry as ONE item
// (lib/logs/packed.ts), so the routing worker writes neither a second version of the alert (its
// table write and its gsi6 move: 3 write units and one PutItem an alert) nor an entry (2 units, the
// log and its owner index copy). Create still hands the alert to routing asynchronously, as the
// contract says (§6): the worker starts the paging and removes the unrouted entry.
//   - The decision's time is the creation's (`routed_at` = `created_at`); its entry's id
//     (`routing_log_id`) is the one right after the alert's, which the `created` entry has: the pack's
//     two ids, the `created` entry first. That id is what tells such an alert apart (decidedAtCreate):
//     its routing may not have run yet although `routed_at` is set; the unrouted entry, removed by
//     the worker at the end, says whether it has.
import { nextUlid } from '../logs/packed';
import type { AlertRecord, Assignment, RoutingDecision } from './records';

/** The id right after the alert's, or null when its millisecond has none (a random part of all Z). */
function idAfter(alertId: string): string | null {
  try {
    return nextUlid(alertId);
  } catch {
    return null;
  }
}

/** True for an alert whose routing decision was stored by its create (its routing may still be under way). */
export function decidedAtCreate(alert: Pick<AlertRecord, 'id' | 'routing_log_id'>): boolean {
  return alert.routing_log_id !== null && alert.routing_log_id === idAfter(alert.id);
}

/** The alert's own teams, then its people: routing assigns them as they are, with no delay. */
export function ownAssignments(
  alert: Pick<AlertRecord, 'destination_team_ids' | 'destination_account_user_ids' | 'destination_users'>,
): Assignment[] {
  const assignments: Assignment[] = [];
  const seen = new Set<string>();
  const add = (assignment: Assignment) => {
    const key = `${assignment.type}#${assignment.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    assignments.push(assignment);
  };
  for (const id of alert.destination_team_ids) add({ type: 'team', id, user_id: null, delay_ms: 0, via: null });
  for (const id of alert.destination_account_user_ids) {
    add({ type: 'account_user', id, user_id: alert.destination_users[id] ?? null, delay_ms: 0, via: null });
  }
  return assignments;
}

/** The first team and the first person's user among `assignments`: whom the alert is assigned to. */
export function assigneesOf(assignments: readonly Assignment[]): Pick<AlertRecord, 'assigned_team_id' | 'assigned_user_id'> {
  return {
    assigned_team_id: assignments.find((a) => a.type === 'team')?.id ?? null,
    assigned_user_id: assignments.find((a) => a.type === 'account_user')?.user_id ?? null,
  };
}

/** The record of a routing decided at create: routed, open → open, nothing else (a new one each time). */
const routedAtCreate = (): RoutingDecision => ({
  outcome: 'routed',
  reason: null,
  from_status: 'open',
  to_status: 'open',
  hops: [],
  skipped: [],
  automations: [],
  aggregate: null,
});

/** `routing` is the record of a routing decided at create (compared field by field: every write of such an alert asks). */
export function isRoutedAtCreate(routing: RoutingDecision | null): boolean {
  return (
    routing !== null &&
    routing.outcome === 'routed' &&
    routing.reason === null &&
    routing.from_status === 'open' &&
    routing.to_status === 'open' &&
    routing.hops.length === 0 &&
    routing.skipped.length === 0 &&
    routing.automations.length === 0 &&
    routing.aggregate === null
  );
}

export type DecisionAtCreate = Pick<
  AlertRecord,
  'assignments' | 'routing' | 'routed_at' | 'routing_log_id' | 'assigned_team_id' | 'assigned_user_id'
>;

/** The decision a create makes for the alert (its own destinations, routed open → open at its creation), or
 * null when its id has none after it in its millisecond (no outcome id to give the decision). */
export function decisionAtCreate(alert: AlertRecord): DecisionAtCreate | null {
  const outcomeId = idAfter(alert.id);
  if (outcomeId === null) return null;
  const assignments = ownAssignments(alert);
  return { assignments, ...assigneesOf(assignments), routing: routedAtCreate(), routed_at: alert.created_at, routing_log_id: outcomeId };
}

/**
 * A new alert with its routing decided, when nothing is left to look up: open, no router, no
 * schedule, at least one team or person. Otherwise the alert as it is, for the routing worker to decide.
 */
export function withRoutingDecidedAtCreate(alert: AlertRecord): AlertRecord {
  if (alert.status !== 'open' || alert.routed_at !== null) return alert;
  if (alert.destination_router_ids.length > 0 || alert.destination_schedule_ids.length > 0) return alert;
  const decision = decisionAtCreate(alert);
  if (decision === null || decision.assignments.length === 0) return alert;
  return { ...alert, ...decision };
}
