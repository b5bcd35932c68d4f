// Router YAML (docs/api.md#routers) → a rule set ready to evaluate. Actions, as the real service writes them:
//   - type: assign       receiver: <id> | [<ids>]   delay: <duration>          (delay optional)
//   - type: ignore                                                             (alert → suppressed, stop)
//   - type: setval       map: {title, description, urgency, tags}              (Handlebars templates)
//   - type: incident     severity: SEV-1..SEV-5    message: <template>         (both optional)
//   - type: aggregate    by: [<paths>]   timeout: <duration>   receiver: <id> | [<ids>]
//   - type: stakeholder  ids: [<ids>]
//   - type: automation   id: <atm_ id>
// Receivers are prefix ids of teams, users, routers and schedules (docs/api.md#ids), checked for form
// only. Durations: see durations.ts (timeout defaults to 5 minutes for aggregate).
import { parseDuration } from './durations';
import type { FaultList, PathSegment } from './faults';
import { describeValue, isMapping } from './faults';
import { LIMITS } from './limits';
import { compileMatch } from './query';
import type { MatchTester } from './query';
import { RECEIVER_PREFIX_LIST, hasPrefix, isBareUlid, receiverKind } from './receivers';
import type { ActionSpec, ParseResult, RawRule, RuleDocumentOptions } from './rule-document';
import { failed, readRuleDocument, stringList } from './rule-document';
import { checkTemplate } from './templates';
import { EvaluationTime } from './time-operators';

export const URGENCIES = ['low', 'medium', 'high', 'critical', 'silent'] as const;
export const INCIDENT_SEVERITIES = ['SEV-1', 'SEV-2', 'SEV-3', 'SEV-4', 'SEV-5'] as const;
export const SETVAL_FIELDS = ['title', 'description', 'urgency', 'tags'] as const;
export const DEFAULT_AGGREGATE_TIMEOUT_MS = 5 * 60_000;

export type SetvalMap = { title?: string; description?: string; urgency?: string; tags?: string[] };

export type RouterAction =
  | { type: 'assign'; receivers: string[]; delay_ms: number }
  | { type: 'ignore' }
  | { type: 'setval'; map: SetvalMap }
  | { type: 'incident'; severity: string | null; message: string | null }
  | { type: 'aggregate'; by: string[]; timeout_ms: number; receivers: string[] }
  | { type: 'stakeholder'; ids: string[] }
  | { type: 'automation'; id: string };

export interface RouterRule {
  index: number;
  match: Record<string, unknown>;
  actions: RouterAction[];
}

export const ROUTER_ACTIONS: Record<RouterAction['type'], ActionSpec> = {
  assign: { settings: ['receiver', 'delay'] },
  ignore: { settings: [] },
  setval: { settings: ['map'] },
  incident: { settings: ['severity', 'message'] },
  aggregate: { settings: ['by', 'timeout', 'receiver'] },
  stakeholder: { settings: ['ids'] },
  automation: { settings: ['id'] },
};

/** A parsed, validated router rule set: the rules as data, and a compiled matcher per rule. */
export class RouterRuleSet {
  readonly kind = 'router' as const;
  /** The instant the testers' time operators read; set by each evaluation. */
  readonly time = new EvaluationTime();
  private readonly testers: MatchTester[];

  constructor(
    readonly text: string,
    readonly rules: readonly RouterRule[],
    readonly warnings: readonly string[],
  ) {
    this.testers = rules.map((rule) => compileMatch(rule.match, this.time));
  }

  /** Index of the first rule whose match holds at `now`, or -1. */
  firstMatch(context: object, now: number): number {
    this.time.at(now);
    for (let i = 0; i < this.testers.length; i++) if (this.testers[i](context)) return i;
    return -1;
  }
}

function readReceivers(value: unknown, at: PathSegment[], faults: FaultList, required: boolean): string[] {
  if (value === undefined || value === null) {
    if (required) faults.add(at, `is required (a receiver id: ${RECEIVER_PREFIX_LIST.join(', ')}…, or a list of them)`);
    return [];
  }
  const list = stringList(value);
  if (!list || list.length === 0) {
    faults.add(at, `must be a receiver id or a list of receiver ids, not ${describeValue(value)}`);
    return [];
  }
  if (list.length > LIMITS.receiversPerAction) {
    faults.add(at, `lists ${list.length} receivers; at most ${LIMITS.receiversPerAction} are allowed`);
    return [];
  }
  const receivers: string[] = [];
  list.forEach((id, index) => {
    const itemAt = Array.isArray(value) ? [...at, index] : at;
    if (!receiverKind(id))
      faults.add(itemAt, `is not a receiver id with a known prefix (${RECEIVER_PREFIX_LIST.join(', ')}): ${JSON.stringify(id)}`);
    else if (!receivers.includes(id)) receivers.push(id);
  });
  return receivers;
}

function readDuration(value: unknown, at: PathSegment[], faults: FaultList, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  const parsed = parseDuration(value);
  if (!parsed.ok) {
    faults.add(at, parsed.message);
    return fallback;
  }
  return parsed.ms;
}

function readTemplate(value: unknown, at: PathSegment[], faults: FaultList): string | null {
  if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
  if (typeof value !== 'string') {
    faults.add(at, `must be a text (a Handlebars template), not ${describeValue(value)}`);
    return null;
  }
  const fault = checkTemplate(value);
  if (fault) {
    faults.add(at, fault);
    return null;
  }
  return value;
}

function readSetval(settings: Record<string, unknown>, at: PathSegment[], faults: FaultList): SetvalMap {
  const map = settings.map;
  const mapAt = [...at, 'map'];
  if (!isMapping(map) || Object.keys(map).length === 0) {
    faults.add(mapAt, `must be a mapping of the fields to set (${SETVAL_FIELDS.join(', ')})`);
    return {};
  }
  const out: SetvalMap = {};
  for (const [key, value] of Object.entries(map)) {
    const keyAt = [...mapAt, key];
    if (!(SETVAL_FIELDS as readonly string[]).includes(key)) {
      faults.add(keyAt, `is not a field setval can set (${SETVAL_FIELDS.join(', ')})`);
    } else if (key === 'tags') {
      const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : null;
      if (!list) faults.add(keyAt, 'must be a list of texts (each a template)');
      else if (list.length > LIMITS.tags) faults.add(keyAt, `lists more than ${LIMITS.tags} tags`);
      else {
        const tags = list.map((tag, index) => readTemplate(tag, Array.isArray(value) ? [...keyAt, index] : keyAt, faults));
        if (tags.every((tag): tag is string => tag !== null)) out.tags = tags;
      }
    } else {
      const template = readTemplate(value, keyAt, faults);
      if (template === null) continue;
      if (key === 'urgency' && !template.includes('{{') && !(URGENCIES as readonly string[]).includes(template.trim().toLowerCase())) {
        faults.add(keyAt, `must be one of ${URGENCIES.join(', ')} (or a template), not ${JSON.stringify(template)}`);
        continue;
      }
      out[key as 'title' | 'description' | 'urgency'] = template;
    }
  }
  return out;
}

/** SEV-1…SEV-5 in any case, or 1…5 → SEV-n; null when it is not a severity. */
export function normalizeSeverity(value: unknown): string | null {
  const text = typeof value === 'number' ? `SEV-${value}` : typeof value === 'string' ? value.trim().toUpperCase() : '';
  const normalized = /^\d$/.test(text) ? `SEV-${text}` : text.replace(/^SEV(\d)$/, 'SEV-$1');
  return (INCIDENT_SEVERITIES as readonly string[]).includes(normalized) ? normalized : null;
}

function readAction(type: string, settings: Record<string, unknown>, at: PathSegment[], faults: FaultList): RouterAction | null {
  switch (type) {
    case 'assign':
      return {
        type,
        receivers: readReceivers(settings.receiver, [...at, 'receiver'], faults, true),
        delay_ms: readDuration(settings.delay, [...at, 'delay'], faults, 0),
      };
    case 'ignore':
      return { type };
    case 'setval':
      return { type, map: readSetval(settings, at, faults) };
    case 'incident': {
      let severity: string | null = null;
      if (settings.severity !== undefined && settings.severity !== null) {
        if (typeof settings.severity === 'string' && settings.severity.includes('{{'))
          severity = readTemplate(settings.severity, [...at, 'severity'], faults);
        else {
          severity = normalizeSeverity(settings.severity);
          if (!severity)
            faults.add([...at, 'severity'], `must be one of ${INCIDENT_SEVERITIES.join(', ')}, not ${describeValue(settings.severity)}`);
        }
      }
      const message =
        settings.message === undefined || settings.message === null ? null : readTemplate(settings.message, [...at, 'message'], faults);
      return { type, severity, message };
    }
    case 'aggregate': {
      const byAt = [...at, 'by'];
      const by = stringList(settings.by);
      if (!by || by.length === 0) faults.add(byAt, 'must be a field path or a list of field paths (for example alert.title)');
      else {
        by.forEach((path, index) => {
          if (
            !/^[^.]+(\.[^.]+)*$/.test(path) ||
            path.split('.').some((segment) => ['__proto__', 'constructor', 'prototype'].includes(segment))
          ) {
            faults.add(Array.isArray(settings.by) ? [...byAt, index] : byAt, `is not a field path: ${JSON.stringify(path)}`);
          }
        });
      }
      return {
        type,
        by: by ?? [],
        timeout_ms: readDuration(settings.timeout, [...at, 'timeout'], faults, DEFAULT_AGGREGATE_TIMEOUT_MS),
        receivers: readReceivers(settings.receiver, [...at, 'receiver'], faults, false),
      };
    }
    case 'stakeholder': {
      const ids = stringList(settings.ids);
      if (!ids || ids.length === 0) {
        faults.add([...at, 'ids'], 'must be a stakeholder id or a list of them (stk_…, usr_…)');
        return null;
      }
      ids.forEach((id, index) => {
        if (!hasPrefix(id, ['stk', 'usr', 'acu'])) {
          faults.add(
            Array.isArray(settings.ids) ? [...at, 'ids', index] : [...at, 'ids'],
            `is not a stakeholder id (stk_…, usr_…): ${JSON.stringify(id)}`,
          );
        }
      });
      return { type, ids: [...new Set(ids)] };
    }
    case 'automation': {
      const id = settings.id;
      if (!hasPrefix(id, ['atm']) && !isBareUlid(id)) {
        faults.add([...at, 'id'], `must be an automation id (atm_…), not ${describeValue(id)}`);
        return null;
      }
      return { type, id };
    }
  }
  return null;
}

export function buildRouterRules(raw: readonly RawRule[], faults: FaultList): RouterRule[] {
  return raw.map((rule) => ({
    index: rule.index,
    match: rule.match,
    actions: rule.actions
      .map((action) => readAction(action.type, action.settings, ['rules', rule.index, 'actions', action.index], faults))
      .filter((action): action is RouterAction => action !== null),
  }));
}

/** Validates router YAML; on success a rule set ready for evaluateRouter. The text is not rewritten. */
export function parseRouterRules(text: unknown, options: RuleDocumentOptions = {}): ParseResult<RouterRuleSet> {
  const read = readRuleDocument(text, ROUTER_ACTIONS, [], options);
  if (!read.ok) return failed(read.faults);
  const rules = buildRouterRules(read.rules, read.faults);
  if (!read.faults.ok) return failed(read.faults);
  const set = new RouterRuleSet(text as string, rules, read.faults.warnings);
  return { ok: true, value: set, warnings: [...read.faults.warnings] };
}

const parsedCache = new Map<string, ParseResult<RouterRuleSet>>();

/** parseRouterRules, remembered per text (a warm worker evaluates the same routers again and again). */
export function routerRulesFor(text: string): ParseResult<RouterRuleSet> {
  let result = parsedCache.get(text);
  if (!result) {
    result = parseRouterRules(text);
    if (parsedCache.size >= 500) parsedCache.delete(parsedCache.keys().next().value as string);
    parsedCache.set(text, result);
  } else {
    // Most recently used last: the oldest entry is the one dropped.
    parsedCache.delete(text);
    parsedCache.set(text, result);
  }
  return result;
}
