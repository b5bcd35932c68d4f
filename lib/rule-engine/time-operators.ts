// The three operators the real service adds to sift (docs/api.md#routers-and-automations), evaluated at the time given
// to the evaluation (never the system clock):
//   $day: {timezone, <conditions on the ISO weekday 1..7>}         e.g. {timezone: X, $in: [6, 7]}
//   $now: {timezone, format, <conditions on the formatted time>}   format defaults to YYYY-MM-DD
//   $timeBetween: {timezone, timeformat, starttime, endtime}       inclusive; overnight when start > end
// Time zones default to Etc/UTC. They stand where sift takes a top-level condition (the top of a
// rule's match, or inside $and, $or, $nor, $not), never under a field path.
import type { FaultList, PathSegment } from './faults';
import { isMapping } from './faults';
import { compileFormat, compileTimeFormat, parseTimeOfDay, renderFormat } from './moment-format';
import type { WallClock } from './wall-clock';
import { isKnownZone, msOfDay, wallClock } from './wall-clock';

export const TIME_OPERATOR_NAMES = ['$day', '$now', '$timeBetween'] as const;
export type TimeOperatorName = (typeof TIME_OPERATOR_NAMES)[number];

export const DEFAULT_ZONE = 'Etc/UTC';
export const DEFAULT_NOW_FORMAT = 'YYYY-MM-DD';
export const DEFAULT_TIME_FORMAT = 'hh:mm a';

/** The instant an evaluation runs at, with wall-clock readings memoised per zone. */
export class EvaluationTime {
  private current = Number.NaN;
  private readonly readings = new Map<string, WallClock>();

  at(now: number): this {
    if (now !== this.current) {
      this.current = now;
      this.readings.clear();
    }
    return this;
  }

  get now(): number {
    return this.current;
  }

  wall(zone: string): WallClock {
    let reading = this.readings.get(zone);
    if (!reading) {
      reading = wallClock(zone, this.current);
      this.readings.set(zone, reading);
    }
    return reading;
  }
}

export interface TimeCondition {
  test(time: EvaluationTime): boolean;
  /** What the condition looked at, for explanations: the weekday, the formatted time, the local time. */
  saw(time: EvaluationTime): unknown;
}

export interface OperatorHelpers {
  /** Validates a document of field operators ($eq, $in, …) applied to one value. */
  validateOperators(doc: Record<string, unknown>, path: PathSegment[], faults: FaultList): void;
  /** A tester of such a document against one value. */
  tester(doc: Record<string, unknown>): (value: unknown) => boolean;
}

function zoneOf(params: Record<string, unknown>): string {
  return typeof params.timezone === 'string' ? params.timezone : DEFAULT_ZONE;
}

function checkZone(params: Record<string, unknown>, path: PathSegment[], faults: FaultList): void {
  if (params.timezone !== undefined && !isKnownZone(params.timezone)) {
    faults.add([...path, 'timezone'], `is not a known IANA time zone: ${JSON.stringify(params.timezone)}`);
  }
}

/** Splits `$day`/`$now` params into their settings and the conditions on the computed value. */
function conditionsOf(value: unknown, settings: readonly string[]): Record<string, unknown> {
  if (!isMapping(value)) return Array.isArray(value) ? { $in: value } : { $eq: value };
  const conditions: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!settings.includes(key)) conditions[key] = item;
  return conditions;
}

function comparands(doc: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(doc)) for (const item of doc) comparands(item, out);
  else if (isMapping(doc)) for (const item of Object.values(doc)) comparands(item, out);
  else out.push(doc);
  return out;
}

/** Compares as strings when every literal in the conditions is a string (`$day: {$in: ["6"]}`). */
function coercion(conditions: Record<string, unknown>): (value: string | number) => unknown {
  const literals = comparands(conditions).filter((item) => typeof item !== 'boolean' && item !== null);
  if (literals.length && literals.every((item) => typeof item === 'string')) return (value) => String(value);
  if (literals.length && literals.every((item) => typeof item === 'number')) {
    return (value) => (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value);
  }
  return (value) => value;
}

function validateValueConditions(
  value: unknown,
  settings: readonly string[],
  path: PathSegment[],
  faults: FaultList,
  helpers: OperatorHelpers,
): void {
  if (isMapping(value)) {
    for (const key of Object.keys(value)) {
      if (!settings.includes(key) && !key.startsWith('$')) {
        faults.add([...path, key], `is not a setting of this operator (settings: ${settings.join(', ')})`);
      }
    }
  } else if (value === null || (typeof value === 'object' && !Array.isArray(value))) {
    faults.add(path, 'must be a mapping of settings and conditions');
    return;
  }
  const conditions = conditionsOf(value, settings);
  if (Object.keys(conditions).length === 0) {
    faults.add(path, 'needs a condition on the value it computes ($eq, $in, $gte, …)');
    return;
  }
  if (isMapping(value)) {
    const onlyOperators = Object.fromEntries(Object.entries(conditions).filter(([key]) => key.startsWith('$')));
    helpers.validateOperators(onlyOperators, path, faults);
  }
}

const DAY_SETTINGS = ['timezone'] as const;
const NOW_SETTINGS = ['timezone', 'format'] as const;
const BETWEEN_SETTINGS = ['timezone', 'timeformat', 'starttime', 'endtime'] as const;

export interface TimeOperator {
  validate(value: unknown, path: PathSegment[], faults: FaultList, helpers: OperatorHelpers): void;
  compile(value: unknown, helpers: OperatorHelpers): TimeCondition;
}

const $day: TimeOperator = {
  validate(value, path, faults, helpers) {
    if (isMapping(value)) checkZone(value, path, faults);
    validateValueConditions(value, DAY_SETTINGS, path, faults, helpers);
  },
  compile(value, helpers) {
    const zone = isMapping(value) ? zoneOf(value) : DEFAULT_ZONE;
    const conditions = conditionsOf(value, DAY_SETTINGS);
    const test = helpers.tester(conditions);
    const coerce = coercion(conditions);
    return {
      test: (time) => test(coerce(time.wall(zone).weekday)),
      saw: (time) => ({ weekday: time.wall(zone).weekday, timezone: zone }),
    };
  },
};

function formatSetting(value: unknown): string {
  return isMapping(value) && typeof value.format === 'string' ? value.format : DEFAULT_NOW_FORMAT;
}

const $now: TimeOperator = {
  validate(value, path, faults, helpers) {
    if (isMapping(value)) {
      checkZone(value, path, faults);
      if (value.format !== undefined) {
        if (typeof value.format !== 'string') faults.add([...path, 'format'], 'must be a text');
        else {
          const compiled = compileFormat(value.format);
          if (!compiled.ok) faults.add([...path, 'format'], compiled.message);
        }
      }
    }
    validateValueConditions(value, NOW_SETTINGS, path, faults, helpers);
  },
  compile(value, helpers) {
    const zone = isMapping(value) ? zoneOf(value) : DEFAULT_ZONE;
    const format = compileFormat(formatSetting(value));
    if (!format.ok) throw new Error(`$now format ${format.message}`);
    const conditions = conditionsOf(value, NOW_SETTINGS);
    const test = helpers.tester(conditions);
    const coerce = coercion(conditions);
    const formatted = (time: EvaluationTime) => renderFormat(format.parts, time.wall(zone));
    return {
      test: (time) => test(coerce(formatted(time))),
      saw: (time) => ({ now: formatted(time), timezone: zone }),
    };
  },
};

function timeSetting(value: unknown, key: 'starttime' | 'endtime'): string | null {
  if (!isMapping(value)) return null;
  const setting = value[key];
  return typeof setting === 'string' || typeof setting === 'number' ? String(setting) : null;
}

const $timeBetween: TimeOperator = {
  validate(value, path, faults) {
    if (!isMapping(value)) {
      faults.add(path, 'must be a mapping with starttime and endtime (and optionally timezone, timeformat)');
      return;
    }
    checkZone(value, path, faults);
    for (const key of Object.keys(value)) {
      if (!(BETWEEN_SETTINGS as readonly string[]).includes(key)) {
        faults.add([...path, key], `is not a setting of $timeBetween (settings: ${BETWEEN_SETTINGS.join(', ')})`);
      }
    }
    const formatText = value.timeformat ?? DEFAULT_TIME_FORMAT;
    if (typeof formatText !== 'string') {
      faults.add([...path, 'timeformat'], 'must be a text');
      return;
    }
    const format = compileTimeFormat(formatText);
    if (!format.ok) {
      faults.add([...path, 'timeformat'], format.message);
      return;
    }
    for (const key of ['starttime', 'endtime'] as const) {
      const setting = timeSetting(value, key);
      if (setting === null) faults.add([...path, key], `is required (a time written as ${formatText})`);
      else if (parseTimeOfDay(setting, format.parts) === null) {
        faults.add([...path, key], `is not a time written as ${formatText}: ${JSON.stringify(setting)}`);
      }
    }
  },
  compile(value) {
    const params = isMapping(value) ? value : {};
    const zone = zoneOf(params);
    const format = compileTimeFormat(typeof params.timeformat === 'string' ? params.timeformat : DEFAULT_TIME_FORMAT);
    if (!format.ok) throw new Error(`$timeBetween timeformat ${format.message}`);
    const start = parseTimeOfDay(timeSetting(value, 'starttime') ?? '', format.parts);
    const end = parseTimeOfDay(timeSetting(value, 'endtime') ?? '', format.parts);
    if (start === null || end === null) throw new Error('$timeBetween needs starttime and endtime');
    return {
      test: (time) => isTimeBetween(msOfDay(time.wall(zone)), start, end),
      saw: (time) => ({ time: renderFormat(format.parts, time.wall(zone)), timezone: zone }),
    };
  },
};

/** Inclusive; when start is after end the span runs over midnight. */
export function isTimeBetween(now: number, start: number, end: number): boolean {
  return start <= end ? now >= start && now <= end : now >= start || now <= end;
}

export const TIME_OPERATORS: Record<TimeOperatorName, TimeOperator> = { $day, $now, $timeBetween };

export function isTimeOperator(key: string): key is TimeOperatorName {
  return (TIME_OPERATOR_NAMES as readonly string[]).includes(key);
}
