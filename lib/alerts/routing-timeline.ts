// The routing's timeline entries (docs/api.md#alerts): one per router the alert passed, then the
// outcome (`routed`, `suppressed`, `dropped`), all derived from the decision stored on the alert, so
// whoever finishes a routing writes the same entries under the same ids: the routing worker
// (lib/alert-routing/route-alert.ts) and, for a decision made at create (lib/alerts/direct-routing.ts),
// the create, whose `created` entry goes in the same item (creationEntries).
import { prefixId, sequencedUlid } from '../ids';
import { packIdsEndingAt } from '../logs/packed';
import { decidedAtCreate } from './direct-routing';
import type { Actor, AlertRecord, RoutingDecision } from './records';
import type { TimelineEntry } from './timeline';

/**
 * The sequence (lib/ids.ts sequencedUlid) of the outcome entry's id, `routing_log_id`, which tells how
 * the routing's entries are stored. 1022: as ONE item (lib/logs/packed.ts), the routers' entries at the
 * ids right before the outcome's, so the decision's one id names them all and a redelivery finishing
 * it writes the same item. 1023 (routings stored before, and none at all): one item each, the
 * routers' at ids of their own (sequence = their index), as then.
 */
const PACKED_OUTCOME_SEQUENCE = 1022;

/** A routing outcome's id (`routing_log_id`) chosen at `timeMs`, packed with its routers' entries. */
export const routingOutcomeId = (timeMs: number, seed: string): string => sequencedUlid(timeMs, PACKED_OUTCOME_SEQUENCE, seed);

/** The two characters that sequence gives an id (its random part's first two). */
const PACKED_MARK = sequencedUlid(0, PACKED_OUTCOME_SEQUENCE, '').slice(10, 12);

export const packedRouting = (outcomeId: string | null): outcomeId is string =>
  outcomeId !== null && outcomeId.slice(10, 12) === PACKED_MARK;

/** The ids of the routing's entries: one per router the alert passed, then the outcome's. */
function timelineIds(alert: AlertRecord, hops: number): string[] {
  const base = Date.parse(alert.routed_at!);
  if (packedRouting(alert.routing_log_id)) return packIdsEndingAt(alert.routing_log_id, hops + 1);
  const ids = Array.from({ length: hops }, (_, index) => sequencedUlid(base, index, `route:${alert.id}:hop:${index}`));
  return [...ids, alert.routing_log_id ?? sequencedUlid(base, 1023, `route:${alert.id}:outcome`)];
}

/** The routing steps of the timeline: one entry per router the alert passed, then the outcome. */
export function routingTimelineEntries(alert: AlertRecord, fullHops?: RoutingDecision['hops']): TimelineEntry[] {
  const routing = alert.routing!;
  const hops = fullHops ?? routing.hops;
  const ids = timelineIds(alert, hops.length);
  const entries: TimelineEntry[] = hops.map((hop, index) => ({
    alert,
    action: 'router',
    oldStatus: routing.from_status,
    newStatus: routing.from_status,
    time: alert.routed_at!,
    details: {
      router_id: hop.router_id,
      via: hop.via,
      depth: hop.depth,
      outcome: hop.outcome,
      rule_index: hop.rule_index,
      actions: hop.actions,
      used_default: hop.used_default,
      ...(hop.warnings.length ? { warnings: hop.warnings } : {}),
    },
    id: ids[index],
  }));
  const action = routing.outcome === 'suppressed' ? 'suppressed' : routing.outcome === 'dropped' ? 'dropped' : 'routed';
  entries.push({
    alert,
    action,
    oldStatus: routing.from_status,
    newStatus: routing.to_status,
    time: alert.routed_at!,
    details: {
      outcome: routing.outcome,
      ...(routing.reason ? { reason: routing.reason } : {}),
      d_team_id: alert.assigned_team_id ? prefixId('team', alert.assigned_team_id) : null,
      d_user_id: alert.assigned_user_id ? prefixId('user', alert.assigned_user_id) : null,
      assignments: alert.assignments.map((a) => ({
        receiver: a.type === 'team' ? prefixId('team', a.id) : prefixId('accountUser', a.id),
        ...(a.user_id ? { user_id: prefixId('user', a.user_id) } : {}),
        delay_ms: a.delay_ms,
        via: a.via,
      })),
      ...(routing.skipped.length ? { skipped: routing.skipped } : {}),
      ...(routing.aggregate?.parent_id ? { parent_id: prefixId('alert', routing.aggregate.parent_id) } : {}),
    },
    id: ids[hops.length],
  });
  return entries;
}

/**
 * The alert's `created` entry (its id the alert's), and, when its create made the routing decision,
 * the routing's `routed` entry right after it: written together as one item (recordTimelinePack).
 */
export function creationEntries(alert: AlertRecord, actor: Actor): TimelineEntry[] {
  const created: TimelineEntry = {
    alert,
    action: 'created',
    actor,
    oldStatus: null,
    newStatus: 'open',
    time: alert.created_at,
    id: alert.id,
  };
  return decidedAtCreate(alert) ? [created, ...routingTimelineEntries(alert)] : [created];
}

/** Who created the alert, as its source fields name them. */
export function creatorOf(alert: AlertRecord): Actor {
  return alert.source_type === 'Integration'
    ? { type: 'Integration', integrationId: alert.source_id }
    : { type: 'AccountUser', accountUserId: alert.source_id, userId: alert.source_user_id ?? '' };
}
