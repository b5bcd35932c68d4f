// What routing decides for a new alert (docs/api.md#alerts, docs/api.md#escalation-and-notifications, docs/api.md#routers-and-automations), before anything is written: the alert's
// own destinations (teams, account users, schedules) and, when it names routers, the router chain's
// decision (lib/rule-engine followRouterChain, depth 10, loops) with its receivers resolved to teams and
// account users of the account. An unknown receiver is skipped and reported; `skd_` (a schedule)
// means the team whose schedule it is, which escalates over it. The only write here is the aggregate
// window claim, which is idempotent for the same alert.
import type { AlertRecord, Assignment, RoutingDecision } from '../alerts/records';
import { alertToV4 } from '../alerts/represent';
import { ownAssignments } from '../alerts/direct-routing';
import { parseBody } from '../integrations/adapters/parse-body';
import { parseId, parsePrefixedId, prefixId } from '../ids';
import { getLog } from '../logs/store';
import { routerForRouting } from '../routers/router-cache';
import { routerDefinition } from '../routers/records';
import type { AlertChanges, ChainAssignment, RoutingContext } from '../rule-engine';
import { loadOnce } from '../load-once';
import { listTeamsOfSchedule } from '../teams/store';
import { getAlert } from '../alerts/store';
import { scaled } from '../clock';
import { accountUserOfUser, teamsExist } from './receiver-cache';
import { getAggregateWindow, openAggregateWindow, takeOverAggregateWindow } from './routing-store';

export interface Decision {
  routing: RoutingDecision;
  assignments: Assignment[];
  changes: AlertChanges;
  parent_id: string | null;
  /** What rules saw (for automations' templates); null when no router was involved. */
  context: RoutingContext | null;
}

/** The alert as rules read it (the real service's v4 shape): tags and tag_list are one list. */
export function alertForRouting(alert: AlertRecord): Record<string, unknown> {
  return { ...alertToV4(alert), tags: alert.tag_list };
}

/** The request that made the alert, as rules read it: {data, headers}. */
async function sourceLog(alert: AlertRecord): Promise<{ data: unknown; headers: Record<string, unknown> } | null> {
  if (!alert.source_log_id) return null;
  const log = await getLog(alert.account_id, alert.source_log_id);
  const stored = log?.data as { body?: unknown; headers?: Record<string, string> } | undefined;
  if (!stored || typeof stored.body !== 'string') return null;
  const headers = stored.headers ?? {};
  try {
    const parsed = parseBody(stored.body, headers, { form: true, text: true });
    return { data: parsed.format === 'text' ? parsed.text : parsed.data, headers };
  } catch {
    return { data: stored.body, headers };
  }
}

/**
 * The rule engine (its YAML and query language, the router chain): loaded with the first alert that
 * names a router or an automation's context, so that a cold start routing alerts straight to their
 * teams loads none of it (test/infra/bundles.test.ts).
 */
const ruleEngine = /* @__PURE__ */ loadOnce(() => import('../rule-engine'));

/** Rules that read the inbound request: `log.…`, `log_parsed`, or the whole `log`. */
const READS_LOG = /\blog(\.|_parsed|\b)/;

/** The routing context of an alert as it is now (automations of a redelivered message use it). */
export async function routingContextOf(alert: AlertRecord): Promise<RoutingContext> {
  const [{ buildRoutingContext }, log] = await Promise.all([ruleEngine(), sourceLog(alert)]);
  return buildRoutingContext({ alert: alertForRouting(alert), log });
}

class AssignmentSet {
  readonly list: Assignment[] = [];

  add(next: Assignment): void {
    const seen = this.list.find((a) => a.type === next.type && a.id === next.id);
    if (!seen) this.list.push(next);
    else if (next.delay_ms < seen.delay_ms) Object.assign(seen, { delay_ms: next.delay_ms, via: next.via });
  }
}

/** Teams whose schedule each is (a schedule receiver is its team's escalation). */
async function teamsOfSchedules(accountId: string, scheduleIds: string[]): Promise<Map<string, string[]>> {
  const found = await Promise.all(
    scheduleIds.map(async (id) => [id, (await listTeamsOfSchedule(accountId, id)).map((t) => t.id)] as const),
  );
  return new Map(found);
}

/** The alert's own destinations: trusted, they were checked when the alert was made. */
async function directAssignments(alert: AlertRecord, into: AssignmentSet, skipped: RoutingDecision['skipped']): Promise<void> {
  for (const assignment of ownAssignments(alert)) into.add(assignment);
  if (alert.destination_schedule_ids.length === 0) return;
  const teams = await teamsOfSchedules(alert.account_id, alert.destination_schedule_ids);
  for (const scheduleId of alert.destination_schedule_ids) {
    const ids = teams.get(scheduleId) ?? [];
    if (ids.length === 0) skipped.push({ receiver: prefixId('schedule', scheduleId), reason: 'no team uses this schedule', via: null });
    for (const id of ids) into.add({ type: 'team', id, user_id: null, delay_ms: 0, via: null });
  }
}

/** Receivers named by rules: they may not exist (docs/api.md#routers-and-automations: logged and skipped). */
async function chainAssignments(
  accountId: string,
  named: ChainAssignment[],
  into: AssignmentSet,
  skipped: RoutingDecision['skipped'],
): Promise<void> {
  const parsed = named.map((assignment) => ({ assignment, id: parsePrefixedId(assignment.receiver) }));
  const teamIds = parsed.filter((p) => p.id?.kind === 'team').map((p) => p.id!.id);
  const userIds = [...new Set(parsed.filter((p) => p.id?.kind === 'user').map((p) => p.id!.id))];
  const scheduleIds = [...new Set(parsed.filter((p) => p.id?.kind === 'schedule').map((p) => p.id!.id))];
  const [found, accountUsers, scheduleTeams] = await Promise.all([
    teamsExist(accountId, teamIds),
    Promise.all(userIds.map(async (id) => [id, await accountUserOfUser(accountId, id)] as const)),
    teamsOfSchedules(accountId, scheduleIds),
  ]);
  const knownTeams = new Set(teamIds.filter((_, i) => found[i]));
  const users = new Map(accountUsers);
  for (const { assignment, id } of parsed) {
    const base = { delay_ms: assignment.delay_ms, via: assignment.router_id };
    const skip = (reason: string) => skipped.push({ receiver: assignment.receiver, reason, via: assignment.router_id });
    if (!id) skip('not an id of this service');
    else if (id.kind === 'team') {
      if (knownTeams.has(id.id)) into.add({ type: 'team', id: id.id, user_id: null, ...base });
      else skip('unknown team');
    } else if (id.kind === 'user') {
      const accountUser = users.get(id.id);
      if (accountUser) into.add({ type: 'account_user', id: accountUser.id, user_id: accountUser.user_id, ...base });
      else skip('unknown user (not in this account)');
    } else if (id.kind === 'schedule') {
      const ids = scheduleTeams.get(id.id) ?? [];
      if (ids.length === 0) skip('unknown schedule, or no team uses it');
      for (const teamId of ids) into.add({ type: 'team', id: teamId, user_id: null, ...base });
    } else skip('not a receiver');
  }
}

const OVER = new Set(['resolved', 'archived']);

/**
 * The aggregate window of a rule: the first alert opens it and is routed; later alerts with the same
 * `by` values while it lasts become its children (the window is fixed from the parent's routing; a
 * parent that is resolved or gone hands the window to the next alert).
 */
async function aggregateParent(alert: AlertRecord, slot: string, now: number, windowMs: number): Promise<string | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await openAggregateWindow(alert.account_id, slot, alert.id, now, windowMs)) return null;
    const window = await getAggregateWindow(alert.account_id, slot);
    if (!window) continue;
    if (window.parent_id === alert.id) return null;
    const parent = await getAlert(alert.account_id, window.parent_id);
    if (parent && !OVER.has(parent.status)) return parent.id;
    if (await takeOverAggregateWindow(alert.account_id, slot, window.parent_id, alert.id, now, windowMs)) return null;
  }
  // Contended beyond reason: route the alert on its own rather than lose it.
  return null;
}

/** The decision is stored on the alert (an item of at most 400 KB): rendered values of long chains
 * are cut to the actions' types and receivers (the timeline of the first attempt keeps them whole). */
const STORED_HOPS_MAX_CHARS = 32 * 1024;

export function storableRouting(routing: RoutingDecision): RoutingDecision {
  if (JSON.stringify(routing.hops).length <= STORED_HOPS_MAX_CHARS) return routing;
  return {
    ...routing,
    hops: routing.hops.map((hop) => ({
      ...hop,
      actions: hop.actions.map((action) => ({
        type: action.type,
        ...(action.receivers ? { receivers: action.receivers } : {}),
        ...(action.id ? { id: action.id } : {}),
        cut: true,
      })),
      warnings: hop.warnings.slice(0, 3).map((warning) => warning.slice(0, 300)),
    })),
  };
}

export async function decideRouting(alert: AlertRecord, now: number, timeScale: number): Promise<Decision> {
  const skipped: RoutingDecision['skipped'] = [];
  const assignments = new AssignmentSet();
  const routing: RoutingDecision = {
    outcome: 'routed',
    reason: null,
    from_status: alert.status,
    to_status: alert.status,
    hops: [],
    skipped,
    automations: [],
    aggregate: null,
  };
  await directAssignments(alert, assignments, skipped);
  let changes: AlertChanges = {};
  let parent: string | null = null;
  let context: RoutingContext | null = null;

  if (alert.destination_router_ids.length > 0) {
    // The inbound request is read only when a router on the way reads it (log.data, log.headers,
    // log_parsed): the chain runs without it first, and again with it when one does (evaluation is
    // pure and routers are cached, so the second run costs microseconds).
    let readsLog = false;
    const entries = alert.destination_router_ids.map((id) => prefixId('router', id));
    const lookup = async (routerId: string) => {
      const id = parseId('router', routerId);
      const record = id ? await routerForRouting(alert.account_id, id) : null;
      if (record?.rules && READS_LOG.test(record.rules)) readsLog = true;
      return record ? routerDefinition(record) : null;
    };
    const { buildRoutingContext, followRouterChain } = await ruleEngine();
    context = buildRoutingContext({ alert: alertForRouting(alert), log: null });
    let chain = await followRouterChain(entries, lookup, context, now);
    const log = readsLog ? await sourceLog(alert) : null;
    if (log) {
      context = buildRoutingContext({ alert: alertForRouting(alert), log });
      chain = await followRouterChain(entries, lookup, context, now);
    }
    changes = chain.alert_changes;
    for (const skip of chain.skipped) skipped.push({ receiver: skip.receiver, reason: 'unknown router', via: skip.via });
    for (const hop of chain.hops) {
      routing.hops.push({
        router_id: hop.router_id,
        depth: hop.depth,
        via: hop.via,
        outcome: hop.plan.outcome,
        rule_index: hop.plan.rule_index,
        actions: hop.plan.actions,
        used_default: hop.plan.used_default,
        warnings: hop.plan.warnings,
      });
      for (const action of hop.plan.actions) {
        if (action.type === 'automation') {
          routing.automations.push({ id: action.id, router_id: hop.router_id, rule_index: hop.plan.rule_index });
        }
      }
    }
    if (chain.status === 'suppressed') {
      routing.outcome = 'suppressed';
      routing.reason = `an ignore action of ${chain.hops.at(-1)?.router_id} suppressed the alert`;
    } else if (chain.status === 'dropped') {
      routing.outcome = 'dropped';
      routing.reason = chain.reason ?? 'the router chain was too deep';
    } else {
      const aggregating = chain.hops.find((hop) => hop.plan.actions.some((action) => action.type === 'aggregate'));
      const action = aggregating?.plan.actions.find((a) => a.type === 'aggregate');
      if (aggregating && action?.type === 'aggregate') {
        const slot = `${aggregating.router_id}#${aggregating.plan.rule_index}#${action.key}`;
        parent = await aggregateParent(alert, slot, now, scaled(action.timeout_ms, timeScale));
        routing.aggregate = {
          key: action.key,
          router_id: aggregating.router_id,
          rule_index: aggregating.plan.rule_index,
          parent_id: parent,
        };
      }
      if (parent) {
        routing.outcome = 'aggregated';
        routing.reason = `aggregated under ${prefixId('alert', parent)} (same ${action?.type === 'aggregate' ? action.by.join(', ') : 'values'})`;
      } else {
        await chainAssignments(alert.account_id, chain.assignments, assignments, skipped);
      }
    }
  }

  const decided = routing.outcome === 'routed' ? assignments.list : [];
  if (routing.outcome === 'routed' && decided.length === 0) {
    routing.outcome = 'dropped';
    routing.reason = 'routing found no receiver to assign';
  }
  if (alert.status === 'open') {
    if (routing.outcome === 'suppressed') routing.to_status = 'suppressed';
    if (routing.outcome === 'dropped') routing.to_status = 'dropped';
  }
  return { routing, assignments: decided, changes, parent_id: parent, context };
}
