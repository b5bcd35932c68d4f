// Which channels page a person, and when (docs/api.md#escalation-and-notifications): THE one place that turns (account user,
// template, alert) into delivery steps, through the rule engine's pickChannels. The person's
// notification rule decides when it is enabled and one of its rules matches; otherwise (no rule, a
// disabled one, no match) the person's default channels go out at once.
//
// `loadNotificationRules` answers each account user's rule (the notification rules resource,
// lib/notification-rules: the rule named by the account user's notification_rule_id, parsed; null
// when none, disabled, empty or gone), and deliveryPlanFor turns it into steps.
import type { AccountUserRecord } from '../account-users/records';
import type { AlertRecord } from '../alerts/records';
import { alertToV4 } from '../alerts/represent';
import { notificationRuleFor } from '../notification-rules/notification-rule-for';
import { pickChannels, type NotificationRuleDefinition, type UserChannelDefaults } from '../rule-engine/pick-channels';
import type { DeliveryStep } from './engine';

/** The notification-rule event type each template answers to (a rule's `types`, default alert.open). */
const RULE_TYPE: Record<string, string> = {
  alert_alert: 'alert.open',
  alert_handoff: 'alert.handoff',
  alert_dropped: 'alert.dropped',
  alert_rejected: 'alert.rejected',
  alert_broadcast: 'alert.broadcast',
  alert_stakeholder: 'alert.stakeholder',
};

/** Rules read within the last second, shared by the steps of one instance (a storm parses a rule once). */
const recentRules = new Map<string, { at: number; rule: Promise<NotificationRuleDefinition | null> }>();
const RECENT_RULE_MS = 1_000;

function ruleOf(accountUser: AccountUserRecord): Promise<NotificationRuleDefinition | null> {
  if (!accountUser.notification_rule_id) return Promise.resolve(null);
  const key = `${accountUser.account_id}|${accountUser.notification_rule_id}`;
  const now = Date.now();
  const cached = recentRules.get(key);
  if (cached && now - cached.at < RECENT_RULE_MS) return cached.rule;
  const rule = notificationRuleFor(accountUser);
  recentRules.set(key, { at: now, rule });
  rule.catch(() => recentRules.delete(key));
  if (recentRules.size > 5_000) for (const old of [...recentRules.keys()].slice(0, 1_000)) recentRules.delete(old);
  return rule;
}

/** Each account user's notification rule (null: none, disabled, empty, or gone). */
export async function loadNotificationRules(
  _accountId: string,
  accountUsers: readonly AccountUserRecord[],
): Promise<Map<string, NotificationRuleDefinition | null>> {
  const rules = await Promise.all(accountUsers.map((accountUser) => ruleOf(accountUser)));
  return new Map(accountUsers.map((accountUser, index) => [accountUser.id, rules[index]]));
}

/** The person's delivery steps for one page or notification: offsets unscaled, channels named. */
export function deliveryPlanFor(
  accountUser: { user: UserChannelDefaults },
  template: string,
  alert: AlertRecord | null,
  rule: NotificationRuleDefinition | null,
  at: number,
): DeliveryStep[] {
  const plan = pickChannels(rule, accountUser.user, { alert: alert ? alertToV4(alert) : {} }, RULE_TYPE[template] ?? 'alert.open', at);
  return plan.steps.map((step) => ({ at_offset_ms: step.at_offset_ms, channels: [...step.channels] }));
}

/** Channels a one-off notification (alert_dropped, alert_rejected, event_goc) goes out on: the plan's immediate step. */
export function immediateChannels(
  accountUser: { user: UserChannelDefaults },
  template: string,
  alert: AlertRecord | null,
  rule: NotificationRuleDefinition | null,
  at: number,
): string[] {
  return deliveryPlanFor(accountUser, template, alert, rule, at)
    .filter((step) => step.at_offset_ms === 0)
    .flatMap((step) => step.channels ?? []);
}
