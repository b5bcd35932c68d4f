// Which channels page an account user, and when (docs/api.md#escalation-and-notifications): the user's notification rule when it
// is enabled and one of its rules for the event matches the alert; otherwise the user's default
// channels (notify_push → push, notify_email → email, notify_sms → sms, notify_voice → voice,
// notify_slack → slack) at once. The answer is a schedule that escalation runs: steps at offsets from the page.
import type { ClockInput } from './evaluation-time';
import { readClock } from './evaluation-time';
import type { RoutingContext } from './context';
import type { NotificationRuleSet, ScheduleStep } from './notification-rules';
import { notificationRulesFor } from './notification-rules';
import type { ConditionReport } from './query';
import { explainMatch, firstFailedCondition } from './query';
import { defaultChannels, type UserChannelDefaults } from './default-channels';

export { defaultChannels, type UserChannelDefaults } from './default-channels';

export interface NotificationRuleDefinition {
  id?: string | null;
  enabled: boolean;
  rules: NotificationRuleSet | string;
}

export type ChannelPlan = {
  /** rule: a rule of the user's notification rule decided; default: the user's default channels. */
  source: 'rule' | 'default';
  /** Why: matched, ignored (a matched rule's ignore), no_rule, disabled, no_match, invalid_rules. */
  reason: 'matched' | 'ignored' | 'no_rule' | 'disabled' | 'no_match' | 'invalid_rules';
  notification_rule_id: string | null;
  rule_index: number | null;
  type: string;
  /** Empty when ignored, or when the user has no default channel. */
  steps: ScheduleStep[];
  ends_at_offset_ms: number;
};

function ruleSetOf(rule: NotificationRuleDefinition): NotificationRuleSet | null {
  if (typeof rule.rules !== 'string') return rule.rules;
  const parsed = notificationRulesFor(rule.rules);
  return parsed.ok ? parsed.value : null;
}

export function pickChannels(
  rule: NotificationRuleDefinition | null | undefined,
  defaults: UserChannelDefaults,
  context: Pick<RoutingContext, 'alert'> & Partial<RoutingContext>,
  type: string = 'alert.open',
  clock: ClockInput = 0,
): ChannelPlan {
  const fallback = (reason: ChannelPlan['reason']): ChannelPlan => {
    const channels = defaultChannels(defaults);
    return {
      source: 'default',
      reason,
      notification_rule_id: rule?.id ?? null,
      rule_index: null,
      type,
      steps: channels.length ? [{ at_offset_ms: 0, channels }] : [],
      ends_at_offset_ms: 0,
    };
  };
  if (!rule) return fallback('no_rule');
  if (!rule.enabled) return fallback('disabled');
  const set = ruleSetOf(rule);
  if (!set) return fallback('invalid_rules');
  const full = { always: true, log: { data: {}, headers: {} }, log_parsed: false, ...context };
  const index = set.firstMatch(full, type, readClock(clock));
  if (index < 0) return fallback('no_match');
  const matched = set.rules[index];
  return {
    source: 'rule',
    reason: matched.ignore ? 'ignored' : 'matched',
    notification_rule_id: rule.id ?? null,
    rule_index: matched.index,
    type,
    steps: matched.ignore ? [] : matched.schedule.map((step) => ({ ...step, channels: [...step.channels] })),
    ends_at_offset_ms: matched.ignore ? 0 : matched.ends_at_offset_ms,
  };
}

export interface NotificationRuleExplanation {
  notification_rule_id: string | null;
  enabled: boolean;
  type: string;
  evaluated_at: string;
  matched_rule: { index: number; conditions: ConditionReport[] } | null;
  /** Rules before the matched one: skipped for another event type, or the first condition that failed. */
  tried: { index: number; skipped_for_type?: string[]; failed_condition: ConditionReport | null }[];
  plan: ChannelPlan;
}

/** The dry run of a notification rule for an alert: the decision of pickChannels and its reasons. */
export function explainNotificationRule(
  rule: NotificationRuleDefinition,
  defaults: UserChannelDefaults,
  context: Pick<RoutingContext, 'alert'> & Partial<RoutingContext>,
  type: string = 'alert.open',
  clock: ClockInput = 0,
): NotificationRuleExplanation {
  const now = readClock(clock);
  const plan = pickChannels(rule, defaults, context, type, now);
  const explanation: NotificationRuleExplanation = {
    notification_rule_id: rule.id ?? null,
    enabled: rule.enabled,
    type,
    evaluated_at: new Date(now).toISOString(),
    matched_rule: null,
    tried: [],
    plan,
  };
  const set = rule.enabled ? ruleSetOf(rule) : null;
  if (!set) return explanation;
  set.time.at(now);
  const full = { always: true, log: { data: {}, headers: {} }, log_parsed: false, ...context };
  const stop = plan.rule_index ?? set.rules.length;
  for (const item of set.rules) {
    if (item.index >= stop) break;
    if (!item.types.includes(type)) explanation.tried.push({ index: item.index, skipped_for_type: item.types, failed_condition: null });
    else explanation.tried.push({ index: item.index, failed_condition: firstFailedCondition(item.match, full, set.time) });
  }
  if (plan.rule_index !== null) {
    const matched = set.rules[plan.rule_index];
    explanation.matched_rule = { index: matched.index, conditions: explainMatch(matched.match, full, set.time) };
  }
  return explanation;
}
