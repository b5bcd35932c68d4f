// Router evaluation (docs/api.md#routers): the first rule whose match holds runs its actions, in order; an
// `ignore` suppresses the alert and stops. No rule matches, the router is disabled, or the matched
// rule assigns no one → the router's default receivers. The result is a plan (data): the routing
// worker applies it (idempotently) and follows receivers that are routers (router-chain.ts).
import { createHash } from 'node:crypto';
import type { ClockInput } from './evaluation-time';
import { readClock } from './evaluation-time';
import type { RoutingContext } from './context';
import { isMapping } from './faults';
import { LIMITS } from './limits';
import type { ConditionReport } from './query';
import { excerpt, explainMatch, firstFailedCondition, valueAtPath } from './query';
import type { ReceiverKind } from './receivers';
import { receiverKind } from './receivers';
import type { RouterRule, RouterRuleSet } from './router-rules';
import { URGENCIES, normalizeSeverity, routerRulesFor } from './router-rules';
import { compileTemplate } from './templates';

export interface RouterDefinition {
  /** The router's prefix id (`rtr_…`), carried into plans and chains. */
  id?: string | null;
  enabled: boolean;
  /** The parsed rule set, or the stored YAML text (parsed once and remembered). */
  rules: RouterRuleSet | string;
  /** Prefix ids (`tem_…`, `usr_…`, `rtr_…`, `skd_…`): the v4 default_receiver_* fields or `default_receiver`. */
  default_receivers: readonly string[];
}

export type PlannedAssignment = {
  receiver: string;
  kind: ReceiverKind;
  delay_ms: number;
  source: 'assign' | 'aggregate' | 'default';
};

export type AlertChanges = {
  title?: string;
  description?: string;
  urgency?: string;
  tags?: string[];
  meta?: { incident: true; incident_severity?: string; incident_message?: string };
  stakeholder_ids?: string[];
};

export type PlannedAction =
  | { type: 'assign'; receivers: string[]; delay_ms: number }
  | { type: 'ignore' }
  | { type: 'setval'; values: Omit<AlertChanges, 'meta' | 'stakeholder_ids'> }
  | { type: 'incident'; severity: string | null; message: string | null }
  | { type: 'aggregate'; by: string[]; values: unknown[]; key: string; timeout_ms: number; receivers: string[] }
  | { type: 'stakeholder'; ids: string[] }
  | { type: 'automation'; id: string };

export type RoutePlan = {
  router_id: string | null;
  /** matched: a rule's actions ran; no_match / disabled / invalid_rules: the default receivers. */
  outcome: 'matched' | 'no_match' | 'disabled' | 'invalid_rules';
  rule_index: number | null;
  /** The matched rule's actions with their values resolved, in order, up to and with `ignore`. */
  actions: PlannedAction[];
  suppressed: boolean;
  /** Who receives the alert: the rule's assign/aggregate receivers, else the default receivers. */
  assignments: PlannedAssignment[];
  used_default: boolean;
  /** The alert's fields after setval, incident and stakeholder actions (only those that change). */
  alert_changes: AlertChanges;
  /** Things the worker should log on the alert's timeline (a rendered urgency that is not one, …). */
  warnings: string[];
  /** The instant the plan was made for (ms). */
  evaluated_at: number;
};

function ruleSetOf(router: RouterDefinition): RouterRuleSet | null {
  if (typeof router.rules !== 'string') return router.rules;
  const parsed = routerRulesFor(router.rules);
  return parsed.ok ? parsed.value : null;
}

function defaultAssignments(router: RouterDefinition): PlannedAssignment[] {
  const out: PlannedAssignment[] = [];
  for (const receiver of router.default_receivers) {
    const kind = receiverKind(receiver);
    if (kind && !out.some((item) => item.receiver === receiver)) out.push({ receiver, kind, delay_ms: 0, source: 'default' });
  }
  return out;
}

/** JSON with sorted keys, so equal values give equal aggregate keys. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isMapping(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export function aggregateKey(values: readonly unknown[]): string {
  return createHash('sha256').update(stableJson(values)).digest('hex').slice(0, 32);
}

function render(source: string, max: number, context: RoutingContext): string {
  return compileTemplate(source, max)(context);
}

function planRule(rule: RouterRule, context: RoutingContext, plan: RoutePlan): void {
  const R = LIMITS.rendered;
  for (const action of rule.actions) {
    switch (action.type) {
      case 'assign':
        plan.actions.push({ type: 'assign', receivers: [...action.receivers], delay_ms: action.delay_ms });
        for (const receiver of action.receivers) {
          plan.assignments.push({ receiver, kind: receiverKind(receiver)!, delay_ms: action.delay_ms, source: 'assign' });
        }
        break;
      case 'ignore':
        plan.actions.push({ type: 'ignore' });
        plan.suppressed = true;
        return;
      case 'setval': {
        const values: Omit<AlertChanges, 'meta' | 'stakeholder_ids'> = {};
        if (action.map.title !== undefined) values.title = render(action.map.title, R.title, context).trim();
        if (action.map.description !== undefined) values.description = render(action.map.description, R.description, context);
        if (action.map.urgency !== undefined) {
          const urgency = render(action.map.urgency, 64, context).trim().toLowerCase();
          if ((URGENCIES as readonly string[]).includes(urgency)) values.urgency = urgency;
          else
            plan.warnings.push(
              `rule ${rule.index}: setval urgency rendered to ${JSON.stringify(urgency.slice(0, R.urgency))}, which is not an urgency; left unchanged`,
            );
        }
        if (action.map.tags !== undefined) {
          const tags = action.map.tags.map((tag) => render(tag, R.tag, context).trim()).filter((tag) => tag !== '');
          values.tags = [...new Set(tags)].slice(0, LIMITS.tags);
        }
        if (values.title === '') {
          delete values.title;
          plan.warnings.push(`rule ${rule.index}: setval title rendered empty; left unchanged`);
        }
        plan.actions.push({ type: 'setval', values });
        Object.assign(plan.alert_changes, values);
        break;
      }
      case 'incident': {
        let severity: string | null = null;
        if (action.severity !== null) {
          severity = normalizeSeverity(action.severity.includes('{{') ? render(action.severity, 64, context) : action.severity);
          if (!severity) plan.warnings.push(`rule ${rule.index}: incident severity did not render to SEV-1…SEV-5; left unset`);
        }
        const message = action.message === null ? null : render(action.message, R.message, context);
        plan.actions.push({ type: 'incident', severity, message });
        plan.alert_changes.meta = {
          incident: true,
          ...(severity ? { incident_severity: severity } : {}),
          ...(message !== null ? { incident_message: message } : {}),
        };
        break;
      }
      case 'aggregate': {
        const values = action.by.map((path) => valueAtPath(context, path) ?? null);
        plan.actions.push({
          type: 'aggregate',
          by: [...action.by],
          values: values.map((value) => excerpt(value)),
          key: aggregateKey(values),
          timeout_ms: action.timeout_ms,
          receivers: [...action.receivers],
        });
        for (const receiver of action.receivers) {
          plan.assignments.push({ receiver, kind: receiverKind(receiver)!, delay_ms: 0, source: 'aggregate' });
        }
        break;
      }
      case 'stakeholder':
        plan.actions.push({ type: 'stakeholder', ids: [...action.ids] });
        plan.alert_changes.stakeholder_ids = [...new Set([...(plan.alert_changes.stakeholder_ids ?? []), ...action.ids])];
        break;
      case 'automation':
        plan.actions.push({ type: 'automation', id: action.id });
        break;
    }
  }
}

/** One receiver once: the earliest delay wins when a rule names a receiver twice. */
function dedupeAssignments(assignments: PlannedAssignment[]): PlannedAssignment[] {
  const byReceiver = new Map<string, PlannedAssignment>();
  for (const assignment of assignments) {
    const seen = byReceiver.get(assignment.receiver);
    if (!seen || assignment.delay_ms < seen.delay_ms) byReceiver.set(assignment.receiver, assignment);
  }
  return [...byReceiver.values()];
}

function emptyPlan(router: RouterDefinition, now: number): RoutePlan {
  return {
    router_id: router.id ?? null,
    outcome: 'no_match',
    rule_index: null,
    actions: [],
    suppressed: false,
    assignments: [],
    used_default: false,
    alert_changes: {},
    warnings: [],
    evaluated_at: now,
  };
}

function finish(router: RouterDefinition, plan: RoutePlan): RoutePlan {
  if (plan.suppressed) plan.assignments = [];
  else if (plan.assignments.length === 0) {
    plan.assignments = defaultAssignments(router);
    plan.used_default = true;
  } else plan.assignments = dedupeAssignments(plan.assignments);
  return plan;
}

export function evaluateRouter(router: RouterDefinition, context: RoutingContext, clock: ClockInput): RoutePlan {
  const now = readClock(clock);
  const plan = emptyPlan(router, now);
  if (!router.enabled) {
    plan.outcome = 'disabled';
    return finish(router, plan);
  }
  const rules = ruleSetOf(router);
  if (!rules) {
    plan.outcome = 'invalid_rules';
    plan.warnings.push('the router rules do not parse; routed to the default receivers');
    return finish(router, plan);
  }
  const index = rules.firstMatch(context, now);
  if (index < 0) return finish(router, plan);
  plan.outcome = 'matched';
  plan.rule_index = rules.rules[index].index;
  planRule(rules.rules[index], context, plan);
  return finish(router, plan);
}

export interface RouterExplanation {
  router_id: string | null;
  enabled: boolean;
  /** The instant the dry run evaluated at, ISO 8601. */
  evaluated_at: string;
  matched_rule: { index: number; conditions: ConditionReport[] } | null;
  /** The rules tried before the matched one (all of them when none matched), each with the first condition that failed. */
  tried: { index: number; failed_condition: ConditionReport | null }[];
  plan: RoutePlan;
}

/** A dry run that explains: the same decision as evaluateRouter, with the reasons. No side effects. */
export function explainRouter(router: RouterDefinition, context: RoutingContext, clock: ClockInput): RouterExplanation {
  const now = readClock(clock);
  const plan = evaluateRouter(router, context, now);
  const explanation: RouterExplanation = {
    router_id: router.id ?? null,
    enabled: router.enabled,
    evaluated_at: new Date(now).toISOString(),
    matched_rule: null,
    tried: [],
    plan,
  };
  const rules = router.enabled ? ruleSetOf(router) : null;
  if (!rules) return explanation;
  rules.time.at(now);
  const stop = plan.rule_index ?? rules.rules.length;
  for (const rule of rules.rules) {
    if (rule.index >= stop) break;
    explanation.tried.push({ index: rule.index, failed_condition: firstFailedCondition(rule.match, context, rules.time) });
  }
  if (plan.rule_index !== null) {
    const rule = rules.rules[plan.rule_index];
    explanation.matched_rule = { index: rule.index, conditions: explainMatch(rule.match, context, rules.time) };
  }
  return explanation;
}
