// Notification rule YAML (docs/api.md#escalation-and-notifications, the real service's format): rules: [{match, actions, types?}]
//   - type: notify   channels: [push, email, sms, voice, slack, whatsapp]   timeout: <duration>
//   - type: repeat   times: 0..3        (repeats every notify above it, times more)
//   - type: ignore                      (no notification at all)
// `types` (default ["alert.open"]) names the events a rule applies to. A notify waits its timeout
// before the next step; a missing timeout is 0 (the next step at once). Each rule's actions unroll
// into a schedule of steps [{at_offset_ms, channels}] when the YAML is parsed, so escalation only
// reads it.
import { parseDuration } from './durations';
import type { FaultList, PathSegment } from './faults';
import { describeValue, isMapping } from './faults';
import { LIMITS } from './limits';
import { compileMatch } from './query';
import type { MatchTester } from './query';
import type { ActionSpec, ParseResult, RawRule, RuleDocumentOptions } from './rule-document';
import { failed, readRuleDocument, stringList } from './rule-document';
import { EvaluationTime } from './time-operators';

export const CHANNELS = ['push', 'email', 'sms', 'voice', 'slack', 'whatsapp'] as const;
export type Channel = (typeof CHANNELS)[number];

export const DEFAULT_RULE_TYPES = ['alert.open'] as const;
/** Events a rule may name; others are accepted with a warning (a later event may use them). */
export const KNOWN_RULE_TYPES = [
  'alert.open',
  'alert.created',
  'alert.acknowledged',
  'alert.rejected',
  'alert.resolved',
  'alert.dropped',
  'alert.handoff',
  'alert.timeout',
  'alert.broadcast',
  'alert.stakeholder',
] as const;

export type NotificationAction =
  | { type: 'notify'; channels: Channel[]; timeout_ms: number; channel_options?: Record<string, unknown> }
  | { type: 'repeat'; times: number }
  | { type: 'ignore' };

export type ScheduleStep = {
  /** Milliseconds after the page starts (divide by TIME_SCALE when scheduling). */
  at_offset_ms: number;
  channels: Channel[];
  channel_options?: Record<string, unknown>;
};

export interface NotificationRule {
  index: number;
  match: Record<string, unknown>;
  types: string[];
  actions: NotificationAction[];
  /** True when the rule holds an ignore: a match sends nothing. */
  ignore: boolean;
  /** The actions unrolled: who hears what when. Empty for an ignore. */
  schedule: ScheduleStep[];
  /** When the sequence has run out (the last step plus its timeout, repeats included). */
  ends_at_offset_ms: number;
}

export const NOTIFICATION_ACTIONS: Record<NotificationAction['type'], ActionSpec> = {
  notify: { settings: ['channels', 'timeout', 'channel_options'] },
  repeat: { settings: ['times'] },
  ignore: { settings: [] },
};

export class NotificationRuleSet {
  readonly kind = 'notification' as const;
  readonly time = new EvaluationTime();
  private readonly testers: MatchTester[];

  constructor(
    readonly text: string,
    readonly rules: readonly NotificationRule[],
    readonly warnings: readonly string[],
  ) {
    this.testers = rules.map((rule) => compileMatch(rule.match, this.time));
  }

  /** Index of the first rule for `type` whose match holds at `now`, or -1. */
  firstMatch(context: object, type: string, now: number): number {
    this.time.at(now);
    for (let i = 0; i < this.testers.length; i++) {
      if (this.rules[i].types.includes(type) && this.testers[i](context)) return i;
    }
    return -1;
  }
}

function readAction(type: string, settings: Record<string, unknown>, at: PathSegment[], faults: FaultList): NotificationAction | null {
  switch (type) {
    case 'notify': {
      const list = stringList(settings.channels);
      const channels: Channel[] = [];
      if (!list || list.length === 0) {
        faults.add([...at, 'channels'], `must be a list of channels (${CHANNELS.join(', ')})`);
      } else {
        list.forEach((name, index) => {
          const channel = name.trim().toLowerCase();
          if (!(CHANNELS as readonly string[]).includes(channel)) {
            faults.add(
              Array.isArray(settings.channels) ? [...at, 'channels', index] : [...at, 'channels'],
              `is not a channel (${CHANNELS.join(', ')}): ${JSON.stringify(name)}`,
            );
          } else if (!channels.includes(channel as Channel)) channels.push(channel as Channel);
        });
      }
      let timeout = 0;
      if (settings.timeout !== undefined && settings.timeout !== null) {
        const parsed = parseDuration(settings.timeout);
        if (!parsed.ok) faults.add([...at, 'timeout'], parsed.message);
        else timeout = parsed.ms;
      }
      const options = settings.channel_options;
      if (options !== undefined && options !== null && !isMapping(options)) faults.add([...at, 'channel_options'], 'must be a mapping');
      return { type, channels, timeout_ms: timeout, ...(isMapping(options) ? { channel_options: options } : {}) };
    }
    case 'repeat': {
      const times = settings.times;
      if (!Number.isInteger(times) || (times as number) < 0 || (times as number) > 3) {
        faults.add([...at, 'times'], `must be a whole number from 0 to 3, not ${describeValue(times)}`);
        return null;
      }
      return { type, times: times as number };
    }
    case 'ignore':
      return { type };
  }
  return null;
}

/** Unrolls notify and repeat actions: each repeat runs everything above it `times` more times. */
export function unrollSchedule(actions: readonly NotificationAction[]): { steps: ScheduleStep[]; end: number; tooLong: boolean } {
  let steps: ScheduleStep[] = [];
  let cursor = 0;
  for (const action of actions) {
    if (action.type === 'notify') {
      steps.push({
        at_offset_ms: cursor,
        channels: action.channels,
        ...(action.channel_options ? { channel_options: action.channel_options } : {}),
      });
      cursor += action.timeout_ms;
    } else if (action.type === 'repeat') {
      const cycle = steps;
      const length = cursor;
      for (let round = 1; round <= action.times; round++) {
        for (const step of cycle) steps = [...steps, { ...step, at_offset_ms: step.at_offset_ms + round * length }];
        if (steps.length > LIMITS.notifySteps) return { steps, end: cursor, tooLong: true };
      }
      cursor = length * (action.times + 1);
    }
    if (steps.length > LIMITS.notifySteps) return { steps, end: cursor, tooLong: true };
  }
  // Steps at the same moment (a cycle without timeouts) are one step with both channel sets.
  const merged: ScheduleStep[] = [];
  for (const step of [...steps].sort((a, b) => a.at_offset_ms - b.at_offset_ms)) {
    const last = merged[merged.length - 1];
    if (last && last.at_offset_ms === step.at_offset_ms) {
      last.channels = [...new Set([...last.channels, ...step.channels])];
      if (step.channel_options) last.channel_options = { ...(last.channel_options ?? {}), ...step.channel_options };
    } else merged.push({ ...step, channels: [...step.channels] });
  }
  return { steps: merged, end: cursor, tooLong: false };
}

function readTypes(raw: Record<string, unknown>, at: PathSegment[], faults: FaultList): string[] {
  if (raw.types === undefined || raw.types === null) return [...DEFAULT_RULE_TYPES];
  const list = stringList(raw.types);
  if (!list || list.length === 0) {
    faults.add([...at, 'types'], 'must be a list of event types (for example alert.open)');
    return [];
  }
  list.forEach((type, index) => {
    const typeAt = Array.isArray(raw.types) ? [...at, 'types', index] : [...at, 'types'];
    if (!/^[a-z_]+\.[a-z_]+$/.test(type)) faults.add(typeAt, `is not an event type (for example alert.open): ${JSON.stringify(type)}`);
    else if (!(KNOWN_RULE_TYPES as readonly string[]).includes(type))
      faults.warn(typeAt, `is not an event this service notifies about yet: ${type}`);
  });
  return [...new Set(list)];
}

function buildRules(raw: readonly RawRule[], faults: FaultList): NotificationRule[] {
  return raw.map((rule) => {
    const at: PathSegment[] = ['rules', rule.index];
    const actions = rule.actions
      .map((action) => readAction(action.type, action.settings, [...at, 'actions', action.index], faults))
      .filter((action): action is NotificationAction => action !== null);
    const ignore = actions.some((action) => action.type === 'ignore');
    if (ignore && actions.length > 1) faults.warn([...at, 'actions'], 'holds ignore: its other actions never run');
    const { steps, end, tooLong } = ignore ? { steps: [], end: 0, tooLong: false } : unrollSchedule(actions);
    if (tooLong) faults.add([...at, 'actions'], `unroll to more than ${LIMITS.notifySteps} notification steps`);
    // Only when every action was read: a faulty notify is reported on its own.
    else if (!ignore && steps.length === 0 && actions.length === (rule.raw.actions as unknown[]).length) {
      faults.add([...at, 'actions'], 'must hold a notify (or an ignore)');
    }
    return {
      index: rule.index,
      match: rule.match,
      types: readTypes(rule.raw, at, faults),
      actions,
      ignore,
      schedule: tooLong ? [] : steps,
      ends_at_offset_ms: end,
    };
  });
}

export function parseNotificationRules(text: unknown, options: RuleDocumentOptions = {}): ParseResult<NotificationRuleSet> {
  const read = readRuleDocument(text, NOTIFICATION_ACTIONS, ['types'], options);
  if (!read.ok) return failed(read.faults);
  const rules = buildRules(read.rules, read.faults);
  if (!read.faults.ok) return failed(read.faults);
  return { ok: true, value: new NotificationRuleSet(text as string, rules, read.faults.warnings), warnings: [...read.faults.warnings] };
}

const parsedCache = new Map<string, ParseResult<NotificationRuleSet>>();

export function notificationRulesFor(text: string): ParseResult<NotificationRuleSet> {
  let result = parsedCache.get(text);
  if (result) parsedCache.delete(text);
  else result = parseNotificationRules(text);
  if (parsedCache.size >= 500) parsedCache.delete(parsedCache.keys().next().value as string);
  parsedCache.set(text, result);
  return result;
}
