// Receivers may be routers (docs/api.md#routers): the chain is followed here so that its limits are pure
// and tested; the worker supplies the lookup. A chain deeper than 10 routers (a loop is one that
// never ends) stops and drops the alert; an unknown router is skipped; an `ignore` anywhere
// suppresses the alert. Each router after the first sees the alert as the routers before it changed
// it (setval, incident). A router reached twice by different paths is evaluated once. A delayed
// assignment to a router delays that router's assignments by as much (its rules are evaluated now).
import type { ClockInput } from './evaluation-time';
import { readClock } from './evaluation-time';
import type { RoutingContext } from './context';
import { LIMITS } from './limits';
import type { ReceiverKind } from './receivers';
import type { AlertChanges, RouterDefinition, RoutePlan } from './evaluate-router';
import { evaluateRouter } from './evaluate-router';
import { whenLoaded } from '../on-first-use';

export type RouterLookup = (routerId: string) => RouterDefinition | null | undefined | Promise<RouterDefinition | null | undefined>;

export interface ChainAssignment {
  receiver: string;
  kind: Exclude<ReceiverKind, 'router'>;
  delay_ms: number;
  /** The router whose plan named this receiver. */
  router_id: string;
}

export interface ChainHop {
  router_id: string;
  depth: number;
  /** The router that passed the alert on (null for an entry router). */
  via: string | null;
  plan: RoutePlan;
}

export interface ChainResult {
  /** routed: someone was assigned; suppressed: an ignore ran; dropped: the chain was too deep; unassigned: no receiver left. */
  status: 'routed' | 'suppressed' | 'dropped' | 'unassigned';
  assignments: ChainAssignment[];
  hops: ChainHop[];
  skipped: { receiver: string; reason: 'unknown_router'; via: string | null }[];
  alert_changes: AlertChanges;
  /** Why the alert was dropped, for the timeline. */
  reason?: string;
}

export interface ChainOptions {
  maxDepth?: number;
  maxRouters?: number;
}

function applyChanges(context: RoutingContext, changes: AlertChanges): RoutingContext {
  if (Object.keys(changes).length === 0) return context;
  const { meta, ...fields } = changes;
  const alert: Record<string, unknown> = { ...context.alert, ...fields };
  if (meta) alert.meta = { ...(context.alert.meta ?? {}), ...meta };
  return { ...context, alert };
}

function mergeChanges(into: AlertChanges, changes: AlertChanges): void {
  const { meta, stakeholder_ids, ...fields } = changes;
  Object.assign(into, fields);
  if (meta) into.meta = { ...(into.meta ?? {}), ...meta };
  if (stakeholder_ids) into.stakeholder_ids = [...new Set([...(into.stakeholder_ids ?? []), ...stakeholder_ids])];
}

/** Evaluates `entries` (router prefix ids) and every router they lead to. */
export async function followRouterChain(
  entries: readonly string[],
  lookup: RouterLookup,
  initial: RoutingContext,
  clock: ClockInput,
  options: ChainOptions = {},
): Promise<ChainResult> {
  const maxDepth = options.maxDepth ?? LIMITS.chainDepth;
  const maxRouters = options.maxRouters ?? LIMITS.chainRouters;
  const now = readClock(clock);
  const result: ChainResult = { status: 'unassigned', assignments: [], hops: [], skipped: [], alert_changes: {} };
  const evaluated = new Set<string>();
  let context = initial;

  const drop = (reason: string): ChainResult => ({
    status: 'dropped',
    assignments: [],
    hops: result.hops,
    skipped: result.skipped,
    alert_changes: result.alert_changes,
    reason,
  });

  // Depth-first, so a path's routers are evaluated in the order the alert passes through them.
  type Step = { routerId: string; depth: number; via: string | null; delay: number; path: string[] };
  const stack: Step[] = [...entries].reverse().map((routerId) => ({ routerId, depth: 1, via: null, delay: 0, path: [routerId] }));
  while (stack.length) {
    const step = stack.pop()!;
    if (step.depth > maxDepth || step.path.indexOf(step.routerId) !== step.path.length - 1) {
      const loop = step.path.indexOf(step.routerId) !== step.path.length - 1;
      return drop(
        `${loop ? 'routers pass the alert in a loop' : `router chain deeper than ${maxDepth}`}: ${step.path.join(' → ')}; the alert is dropped`,
      );
    }
    if (evaluated.has(step.routerId)) continue;
    if (evaluated.size >= maxRouters) return drop(`the alert reached more than ${maxRouters} routers; the alert is dropped`);
    const router = await lookup(step.routerId);
    if (!router) {
      result.skipped.push({ receiver: step.routerId, reason: 'unknown_router', via: step.via });
      continue;
    }
    evaluated.add(step.routerId);
    const evaluating = context;
    const plan = await whenLoaded(() => evaluateRouter({ ...router, id: router.id ?? step.routerId }, evaluating, now));
    result.hops.push({ router_id: step.routerId, depth: step.depth, via: step.via, plan });
    mergeChanges(result.alert_changes, plan.alert_changes);
    context = applyChanges(context, plan.alert_changes);
    if (plan.suppressed) {
      return { ...result, status: 'suppressed', assignments: [] };
    }
    const next: Step[] = [];
    for (const assignment of plan.assignments) {
      const delay = step.delay + assignment.delay_ms;
      if (assignment.kind === 'router') {
        next.push({
          routerId: assignment.receiver,
          depth: step.depth + 1,
          via: step.routerId,
          delay,
          path: [...step.path, assignment.receiver],
        });
      } else if (!result.assignments.some((item) => item.receiver === assignment.receiver && item.delay_ms <= delay)) {
        result.assignments = result.assignments.filter((item) => item.receiver !== assignment.receiver);
        result.assignments.push({ receiver: assignment.receiver, kind: assignment.kind, delay_ms: delay, router_id: step.routerId });
      }
    }
    stack.push(...next.reverse());
  }
  result.status = result.assignments.length ? 'routed' : 'unassigned';
  return result;
}
