// The match language (docs/api.md#routers-and-automations): MongoDB-style queries through sift over the routing context,
// with dotted paths. Only the listed operators exist: $where (which would run code) and every other
// operator are refused when a rule set is saved. $regex runs on RE2 (see safe-regex.ts) and $type
// takes MongoDB's type names; $day, $now and $timeBetween come from time-operators.ts.
import * as siftNamespace from 'sift';
import type * as Sift from 'sift';
import type { FaultList, PathSegment } from './faults';
import { describeValue, isMapping } from './faults';
import { compileRegex } from './safe-regex';
import type { EvaluationTime, OperatorHelpers, TimeCondition } from './time-operators';
import { TIME_OPERATORS, isTimeOperator } from './time-operators';
import { passOnNotLoaded } from '../on-first-use';

/** Operators applied to a value (under a field path). */
export const FIELD_OPERATORS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$regex',
  '$options',
  '$not',
  '$size',
  '$all',
  '$elemMatch',
  '$mod',
  '$type',
] as const;
export const LOGICAL_OPERATORS = ['$and', '$or', '$nor'] as const;

// sift ships two builds. Node (and tsx, vitest) load its CommonJS build, whose module object (the
// default import) is the tester with every operation attached; the deployed bundles resolve its ESM
// build (esbuild's mainFields prefer `module`), whose operations are named exports and whose default
// is the bare tester. Read whichever holds them (test/routing/bundled.test.ts runs the bundle).
const namespace = siftNamespace as unknown as { createQueryTester?: unknown; default?: unknown };
const sift = (typeof namespace.createQueryTester === 'function' ? namespace : namespace.default) as typeof Sift;
const { createEqualsOperation, createQueryTester } = sift;

const FIELD_SET = new Set<string>(FIELD_OPERATORS);
const LOGICAL_SET = new Set<string>(LOGICAL_OPERATORS);
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

type SiftOptions = { operations: Record<string, unknown>; compare: (a: unknown, b: unknown) => boolean };
// Each operator's creator reads its own parameter type; sift types them all as any.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Creator = (params: any, ownerQuery: any, options: SiftOptions, name: string) => unknown;

// --- $regex and $type -------------------------------------------------------------------------

const safeRegex: Creator = (pattern: string, ownerQuery: Record<string, unknown>, options) => {
  const flags = typeof ownerQuery?.$options === 'string' ? ownerQuery.$options : '';
  const compiled = compileRegex(String(pattern), flags);
  if (!compiled.ok) throw new Error(`$regex ${compiled.message}`);
  return createEqualsOperation((value: unknown) => typeof value === 'string' && compiled.test(value), ownerQuery, options as never);
};

const isNumber = (value: unknown) => typeof value === 'number';
const TYPE_TESTS: Record<string, (value: unknown) => boolean> = {
  double: isNumber,
  number: isNumber,
  decimal: isNumber,
  int: (value) => Number.isInteger(value),
  long: (value) => Number.isInteger(value),
  string: (value) => typeof value === 'string',
  object: (value) => isMapping(value),
  array: (value) => Array.isArray(value),
  bool: (value) => typeof value === 'boolean',
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
};
const TYPE_CODES: Record<number, string> = {
  1: 'double',
  2: 'string',
  3: 'object',
  4: 'array',
  8: 'bool',
  10: 'null',
  16: 'int',
  18: 'long',
  19: 'decimal',
};

function typeTest(spec: unknown): ((value: unknown) => boolean) | null {
  if (Array.isArray(spec)) {
    const tests = spec.map(typeTest);
    if (!tests.length || tests.some((test) => !test)) return null;
    return (value) => tests.some((test) => test!(value));
  }
  const name = typeof spec === 'number' ? TYPE_CODES[spec] : typeof spec === 'string' ? spec : undefined;
  return (name !== undefined && Object.hasOwn(TYPE_TESTS, name) && TYPE_TESTS[name]) || null;
}

const safeType: Creator = (spec, ownerQuery, options) => {
  const test = typeTest(spec);
  if (!test) throw new Error(`$type ${describeValue(spec)} is not a known type`);
  return createEqualsOperation(test, ownerQuery, options as never);
};

const BASE_OPERATIONS: Record<string, Creator> = {
  $eq: sift.$eq,
  $ne: sift.$ne,
  $gt: sift.$gt,
  $gte: sift.$gte,
  $lt: sift.$lt,
  $lte: sift.$lte,
  $in: sift.$in,
  $nin: sift.$nin,
  $exists: sift.$exists,
  $options: sift.$options,
  $not: sift.$not,
  $size: sift.$size,
  $all: sift.$all,
  $elemMatch: sift.$elemMatch,
  $mod: sift.$mod,
  $and: sift.$and,
  $or: sift.$or,
  $nor: sift.$nor,
  $regex: safeRegex,
  $type: safeType,
} as unknown as Record<string, Creator>;

function baseTester(doc: Record<string, unknown>): (value: unknown) => boolean {
  return createQueryTester(doc as never, { operations: BASE_OPERATIONS as never }) as (value: unknown) => boolean;
}

// --- time operators as sift operations ---------------------------------------------------------

function timeOperation(condition: TimeCondition, time: EvaluationTime) {
  return {
    keep: false,
    done: false,
    // Not a property operation: sift refuses it under a field path.
    propop: false,
    reset() {
      this.keep = false;
      this.done = false;
    },
    next() {
      this.keep = condition.test(time);
      this.done = true;
    },
  };
}

function operationsFor(time: EvaluationTime): Record<string, Creator> {
  const operations: Record<string, Creator> = { ...BASE_OPERATIONS };
  for (const [name, operator] of Object.entries(TIME_OPERATORS)) {
    operations[name] = (params) => timeOperation(operator.compile(params, HELPERS), time);
  }
  return operations;
}

// --- validation ----------------------------------------------------------------------------------

function validateFieldPath(key: string, path: PathSegment[], faults: FaultList): void {
  if (key.length > 256) faults.add(path, 'is a field path longer than 256 characters');
  else if (key.split('.').some((segment) => segment === '' || FORBIDDEN_SEGMENTS.has(segment))) {
    faults.add(path, 'is not a valid field path (dotted names such as alert.urgency or log.data.host)');
  }
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function hasOperatorKeys(value: unknown): boolean {
  return isMapping(value) && Object.keys(value).some((key) => key.startsWith('$'));
}

function validateFieldOperator(key: string, value: unknown, owner: Record<string, unknown>, path: PathSegment[], faults: FaultList): void {
  const at = [...path, key];
  switch (key) {
    case '$eq':
    case '$ne':
      return;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      if (!isScalar(value)) faults.add(at, `must be a number, text or boolean, not ${describeValue(value)}`);
      return;
    case '$in':
    case '$nin':
    case '$all':
      if (!Array.isArray(value)) faults.add(at, `must be a list, not ${describeValue(value)}`);
      else if (key !== '$all') {
        value.forEach((item, index) => {
          if (hasOperatorKeys(item)) faults.add([...at, index], 'must be a value, not a condition');
        });
      }
      return;
    case '$exists':
      if (typeof value !== 'boolean') faults.add(at, `must be true or false, not ${describeValue(value)}`);
      return;
    case '$regex': {
      if (typeof value !== 'string') {
        faults.add(at, `must be a text, not ${describeValue(value)}`);
        return;
      }
      const compiled = compileRegex(value, typeof owner.$options === 'string' ? owner.$options : '');
      if (!compiled.ok) faults.add(at, compiled.message);
      return;
    }
    case '$options':
      if (typeof value !== 'string' || !/^[ims]*$/.test(value)) faults.add(at, 'must be made of the letters i, m and s');
      else if (owner.$regex === undefined) faults.add(at, 'needs a $regex beside it');
      return;
    case '$not':
      if (!isMapping(value) || !hasOperatorKeys(value)) faults.add(at, 'must be a mapping of conditions ($regex, $in, …)');
      else validateOperatorDocument(value, at, faults);
      return;
    case '$size':
      if (!Number.isInteger(value) || (value as number) < 0)
        faults.add(at, `must be a whole number of zero or more, not ${describeValue(value)}`);
      return;
    case '$mod':
      if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number' || value[0] === 0) {
        faults.add(at, 'must be [divisor, remainder] with a divisor other than 0');
      }
      return;
    case '$type':
      if (!typeTest(value)) {
        faults.add(at, `must name a type (${Object.keys(TYPE_TESTS).join(', ')}) or list them, not ${describeValue(value)}`);
      }
      return;
    case '$elemMatch':
      if (!isMapping(value)) faults.add(at, 'must be a mapping of conditions');
      else validateDocument(value, at, faults, 'element');
      return;
  }
}

/** A mapping of field operators applied to one value: `{$in: [...], $ne: ...}`. */
function validateOperatorDocument(doc: Record<string, unknown>, path: PathSegment[], faults: FaultList): void {
  for (const [key, value] of Object.entries(doc)) {
    if (!key.startsWith('$')) {
      faults.add([...path, key], 'cannot stand beside operators: a condition is either operators ($in, $gt, …) or a value');
    } else if (FIELD_SET.has(key)) {
      validateFieldOperator(key, value, doc, path, faults);
    } else if (LOGICAL_SET.has(key) || isTimeOperator(key)) {
      faults.add([...path, key], 'cannot be used under a field path; write it at the top of match');
    } else {
      faults.add([...path, key], 'is not a known operator');
    }
  }
}

/** A query document: field paths, logical operators and (at the top) time operators. */
function validateDocument(doc: Record<string, unknown>, path: PathSegment[], faults: FaultList, scope: 'root' | 'element'): void {
  for (const [key, value] of Object.entries(doc)) {
    const at = [...path, key];
    if (LOGICAL_SET.has(key)) {
      if (!Array.isArray(value) || value.length === 0) {
        faults.add(at, 'must be a list of one or more mappings of conditions');
        continue;
      }
      value.forEach((item, index) => {
        if (!isMapping(item)) faults.add([...at, index], 'must be a mapping of conditions');
        else validateDocument(item, [...at, index], faults, scope);
      });
    } else if (key === '$not' && scope === 'root') {
      if (!isMapping(value)) faults.add(at, 'must be a mapping of conditions');
      else validateDocument(value, at, faults, scope);
    } else if (isTimeOperator(key)) {
      if (scope !== 'root') faults.add(at, 'can only be used at the top of match or inside $and, $or, $nor, $not');
      else TIME_OPERATORS[key].validate(value, at, faults, HELPERS);
    } else if (key.startsWith('$')) {
      if (FIELD_SET.has(key) && scope === 'element') validateFieldOperator(key, value, doc, path, faults);
      else if (FIELD_SET.has(key)) faults.add(at, 'must be under a field path (for example alert.urgency: {$in: [high]})');
      else if (key === '$where') faults.add(at, 'is not allowed (it would run code)');
      else faults.add(at, 'is not a known operator');
    } else {
      validateFieldPath(key, at, faults);
      if (hasOperatorKeys(value)) validateOperatorDocument(value as Record<string, unknown>, at, faults);
    }
  }
}

const HELPERS: OperatorHelpers = {
  validateOperators: (doc, path, faults) => validateOperatorDocument(doc, path, faults),
  tester: baseTester,
};

/** Validates a rule's match; faults go to `faults` with paths under `path`. */
export function validateMatch(match: unknown, path: PathSegment[], faults: FaultList): void {
  if (!isMapping(match)) {
    faults.add(path, `must be a mapping of conditions (for example alert.urgency: high, or always: true), not ${describeValue(match)}`);
    return;
  }
  const before = faults.faults.length;
  validateDocument(match, path, faults, 'root');
  if (faults.faults.length > before) return;
  try {
    compileMatch(match, new EvalTimeForValidation());
  } catch (error) {
    passOnNotLoaded(error);
    faults.add(path, `is not a valid query: ${error instanceof Error ? error.message : 'unreadable'}`);
  }
}

// Validation compiles without evaluating: no instant is needed.
class EvalTimeForValidation {
  now = 0;
  at() {
    return this;
  }
  wall(): never {
    throw new Error('not evaluated');
  }
}

export type MatchTester = (context: object) => boolean;

type Literal = string | number | boolean;
const isLiteral = (value: unknown): value is Literal =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * A cheap test that can only say "this match cannot hold" (false) or "ask sift" (true), from the
 * top-level conditions that compare a field with literals: `path: literal`, `path: {$eq: literal}`,
 * `path: {$in: [literals]}`. It reads the path through plain objects only and says "ask sift" as
 * soon as it meets a list or an object at the end, so sift's rules for lists never differ from it.
 * Most rules of a router start with such a condition, and most alerts fail it: this skips most of
 * sift's work (see bench/routing-engine.ts; a property test checks it never changes a decision).
 */
export function compilePrefilter(match: Record<string, unknown>): MatchTester | null {
  const checks: { path: string[]; accepts: (value: Literal | undefined | null) => boolean }[] = [];
  const branches: MatchTester[] = [];
  for (const [key, condition] of Object.entries(match)) {
    // $and holds only when every branch does; $or only when one does (each branch must be prefiltered).
    if ((key === '$and' || key === '$or') && Array.isArray(condition) && condition.every(isMapping)) {
      const tests = condition.map(compilePrefilter);
      if (key === '$and') branches.push(...tests.filter((test): test is MatchTester => test !== null));
      else if (tests.length && tests.every((test) => test !== null)) branches.push((context) => tests.some((test) => test(context)));
      continue;
    }
    if (key.startsWith('$')) continue;
    let allowed: Literal[] | null = null;
    if (isLiteral(condition)) allowed = [condition];
    else if (isMapping(condition)) {
      const keys = Object.keys(condition);
      if (keys.length === 1 && keys[0] === '$eq' && isLiteral(condition.$eq)) allowed = [condition.$eq];
      else if (keys.length === 1 && keys[0] === '$in' && Array.isArray(condition.$in) && condition.$in.every(isLiteral))
        allowed = condition.$in;
    }
    if (!allowed) continue;
    const set = new Set<unknown>(allowed);
    checks.push({ path: key.split('.'), accepts: (value) => value !== undefined && value !== null && set.has(value) });
  }
  if (checks.length === 0 && branches.length === 0) return null;
  return (context) => {
    for (const branch of branches) if (!branch(context)) return false;
    for (const check of checks) {
      let value: unknown = context;
      for (const segment of check.path) {
        if (value === null || value === undefined) break;
        if (typeof value !== 'object' || Array.isArray(value)) return true;
        value = Object.hasOwn(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
      }
      if (typeof value === 'object' && value !== null) return true;
      if (!check.accepts(value as Literal | undefined | null)) return false;
    }
    return true;
  };
}

/** A tester of `match`; time operators read the instant set on `time` before each test. */
export function compileMatch(
  match: Record<string, unknown>,
  time: EvaluationTime | EvalTimeForValidation,
  options: { prefilter?: boolean } = {},
): MatchTester {
  const tester = createQueryTester(match as never, { operations: operationsFor(time as EvaluationTime) as never }) as MatchTester;
  const prefilter = options.prefilter === false ? null : compilePrefilter(match);
  return prefilter ? (context) => prefilter(context) && tester(context) : tester;
}

// --- explanations ---------------------------------------------------------------------------------

export type ConditionReport = {
  /** The key of the condition in match: a field path or an operator. */
  condition: string;
  /** The condition as written. */
  expected: unknown;
  held: boolean;
  /** The value the condition looked at (bounded excerpt). */
  saw?: unknown;
  /** For $and, $or, $nor and $not: each branch and its conditions. */
  branches?: { index: number; held: boolean; conditions: ConditionReport[] }[];
};

/** The value at a dotted path; through lists as MongoDB does (each element's value, flattened). */
export function valueAtPath(root: unknown, path: string): unknown {
  let values: unknown[] = [root];
  let throughList = false;
  for (const segment of path.split('.')) {
    const next: unknown[] = [];
    for (const value of values) {
      if (Array.isArray(value) && !/^\d+$/.test(segment)) {
        throughList = true;
        for (const item of value) if (isMapping(item) && Object.hasOwn(item, segment)) next.push(item[segment]);
      } else if ((isMapping(value) || Array.isArray(value)) && Object.hasOwn(value, segment)) {
        next.push((value as Record<string, unknown>)[segment]);
      }
    }
    values = next;
  }
  if (!throughList) return values[0];
  return values.flatMap((value): unknown[] => (Array.isArray(value) ? value : [value]));
}

/** A bounded copy of a value for reports: long texts, lists and mappings are cut. */
export function excerpt(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (depth >= 4 && typeof value === 'object' && value !== null) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, 20).map((item) => excerpt(item, depth + 1));
    if (value.length > 20) items.push(`… ${value.length - 20} more`);
    return items;
  }
  if (isMapping(value)) {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value);
    for (const key of keys.slice(0, 20)) out[key] = excerpt(value[key], depth + 1);
    if (keys.length > 20) out['…'] = `${keys.length - 20} more keys`;
    return out;
  }
  return value;
}

/**
 * Each top-level condition of `match` tested on its own (a match holds when all of them do), with
 * the value it saw. Logical operators report their branches one level down, recursively.
 */
export function explainMatch(match: Record<string, unknown>, context: object, time: EvaluationTime): ConditionReport[] {
  return Object.entries(match).map(([key, value]) => explainCondition(key, value, context, time));
}

function explainCondition(key: string, value: unknown, context: object, time: EvaluationTime): ConditionReport {
  const held = compileMatch({ [key]: value }, time)(context);
  const report: ConditionReport = { condition: key, expected: excerpt(value), held };
  if (LOGICAL_SET.has(key) && Array.isArray(value)) {
    report.branches = value.map((branch, index) => ({
      index,
      held: compileMatch(branch as Record<string, unknown>, time)(context),
      conditions: explainMatch(branch as Record<string, unknown>, context, time),
    }));
  } else if (key === '$not' && isMapping(value)) {
    report.branches = [{ index: 0, held: !held, conditions: explainMatch(value, context, time) }];
  } else if (isTimeOperator(key)) {
    report.saw = TIME_OPERATORS[key].compile(value, HELPERS).saw(time);
  } else {
    report.saw = excerpt(valueAtPath(context, key));
  }
  return report;
}

/** The first condition of `match` that does not hold, or null when all hold. */
export function firstFailedCondition(match: Record<string, unknown>, context: object, time: EvaluationTime): ConditionReport | null {
  for (const [key, value] of Object.entries(match)) {
    const report = explainCondition(key, value, context, time);
    if (!report.held) return report;
  }
  return null;
}
