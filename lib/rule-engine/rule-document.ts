// The shape shared by router and notification rule YAML (the real service's format):
//   rules:
//     - match: {<conditions>}
//       actions:
//         - type: <action>
//           <settings of the action>
// Actions are a list of entries with `type`, as the real service documents them; the map form
// (`- assign: {...}`) is not its format and is refused with a hint.
import { FaultList, describeValue, isMapping } from './faults';
import type { PathSegment, RuleFault } from './faults';
import { LIMITS } from './limits';
import { validateMatch } from './query';
import { loadYaml } from './yaml-document';

export type ParseResult<T> = { ok: true; value: T; warnings: string[] } | { ok: false; faults: RuleFault[]; messages: string[] };

export interface RawRule {
  index: number;
  match: Record<string, unknown>;
  raw: Record<string, unknown>;
  actions: { index: number; type: string; settings: Record<string, unknown> }[];
}

export interface ActionSpec {
  /** Keys the action reads besides `type`; anything else is reported as a warning and ignored. */
  settings: readonly string[];
}

export interface RuleDocumentOptions {
  /** The request field that holds the YAML (`rules`, `settings`), for messages about the text. */
  field?: string;
}

/** Faults in the order of the text (those without a position first). */
export function failed<T>(faults: FaultList): ParseResult<T> {
  const ordered = [...faults.faults].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { ok: false, faults: ordered, messages: ordered.map((fault) => fault.message) };
}

/**
 * Loads the YAML and checks the document shape, each rule's match, and each action's type and
 * settings keys. `ruleKeys` are the keys a rule may hold besides match and actions. ok: false only
 * when the document cannot be read as rules at all; otherwise faults may still be listed.
 */
export function readRuleDocument(
  text: unknown,
  actions: Record<string, ActionSpec>,
  ruleKeys: readonly string[],
  options: RuleDocumentOptions = {},
): { ok: true; rules: RawRule[]; faults: FaultList } | { ok: false; faults: FaultList } {
  const field = options.field ?? 'rules';
  const loaded = loadYaml(text, field);
  if (!loaded.ok) return { ok: false, faults: loaded.faults };
  const faults = new FaultList(loaded.locate);
  const root = loaded.value;
  if (!isMapping(root) || !Object.hasOwn(root, 'rules')) {
    faults.add([], `${field} must be YAML with a top-level rules list, each rule with match and actions`);
    return { ok: false, faults };
  }
  for (const key of Object.keys(root)) if (key !== 'rules') faults.warn([key], 'is not read (only rules is)');
  const list = root.rules;
  if (!Array.isArray(list)) {
    faults.add(['rules'], `must be a list of rules, not ${describeValue(list)}`);
    return { ok: false, faults };
  }
  if (list.length > LIMITS.rules) {
    faults.add(['rules'], `holds ${list.length} rules; at most ${LIMITS.rules} are allowed`);
    return { ok: false, faults };
  }
  const known = Object.keys(actions);
  const rules: RawRule[] = [];
  list.forEach((entry, index) => {
    const at: PathSegment[] = ['rules', index];
    if (!isMapping(entry)) {
      faults.add(at, `must be a mapping with match and actions, not ${describeValue(entry)}`);
      return;
    }
    for (const key of Object.keys(entry)) {
      if (key !== 'match' && key !== 'actions' && !ruleKeys.includes(key))
        faults.warn([...at, key], 'is not read (a rule holds match and actions)');
    }
    if (!Object.hasOwn(entry, 'match') || entry.match === null) faults.add(at, 'has no match (write always: true to match every alert)');
    else validateMatch(entry.match, [...at, 'match'], faults);
    const rule: RawRule = { index, match: isMapping(entry.match) ? entry.match : {}, raw: entry, actions: [] };
    if (!Object.hasOwn(entry, 'actions') || entry.actions === null) {
      faults.add(at, 'has no actions');
    } else if (!Array.isArray(entry.actions) || entry.actions.length === 0) {
      faults.add([...at, 'actions'], `must be a list of one or more actions, not ${describeValue(entry.actions)}`);
    } else if (entry.actions.length > LIMITS.actionsPerRule) {
      faults.add([...at, 'actions'], `holds ${entry.actions.length} actions; at most ${LIMITS.actionsPerRule} are allowed`);
    } else {
      entry.actions.forEach((action: unknown, actionIndex: number) => {
        const actionAt: PathSegment[] = [...at, 'actions', actionIndex];
        if (!isMapping(action)) {
          faults.add(actionAt, `must be a mapping with a type (one of ${known.join(', ')}), not ${describeValue(action)}`);
          return;
        }
        if (!Object.hasOwn(action, 'type')) {
          const keys = Object.keys(action);
          const hint =
            keys.length === 1 && known.includes(keys[0])
              ? ` (write "- type: ${keys[0]}" with its settings beside the type)`
              : ` (one of ${known.join(', ')})`;
          faults.add(actionAt, `has no type${hint}`);
          return;
        }
        const type = action.type;
        if (typeof type !== 'string' || !Object.hasOwn(actions, type)) {
          faults.add(
            [...actionAt, 'type'],
            `is not a known action: ${typeof type === 'string' ? type : describeValue(type)} (known actions: ${known.join(', ')})`,
          );
          return;
        }
        for (const key of Object.keys(action)) {
          if (key !== 'type' && !actions[type].settings.includes(key))
            faults.warn([...actionAt, key], `is not a setting of ${type}; it is ignored`);
        }
        rule.actions.push({ index: actionIndex, type, settings: action });
      });
    }
    rules.push(rule);
  });
  // Faults so far stay in `faults`: the caller reads each action's settings too, so that one save
  // reports every fault of the document, then checks faults.ok.
  return { ok: true, rules, faults };
}

/** A string or a list of strings → the list; anything else → null. */
export function stringList(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  return null;
}
