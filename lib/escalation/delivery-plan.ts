// Which channels page a person, and when (contract §8): THE one place that turns (account user,
// template, alert) into delivery steps, through the routing engine's pickChannels. The person's
// notification rule decides when it is enabled and one of its rules matches; otherwise (no rule, a
// disabled one, no match) the person's default channels go out at once.
//
// Seam for the notification rules resource: `loadNotificationRules` answers each account user's
// rule (NotificationRuleDefinition, or null). Until that resource exists it answers none, so every
// page takes the "no matching rule: default channels" path; plugging the resource in is one change
// here, and deliveryPlanFor already takes the rule it finds.
import type { AccountUserRecord } from '../account-users/records';
import type { AlertRecord } from '../alerts/records';
import { alertToV4 } from '../alerts/represent';
import { pickChannels, type NotificationRuleDefinition, type UserChannelDefaults } from '../routing';
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

/** Each account user's notification rule (null: none). The notification rules resource plugs in here. */
export async function loadNotificationRules(
  _accountId: string,
  _accountUsers: readonly AccountUserRecord[],
): Promise<Map<string, NotificationRuleDefinition | null>> {
  return new Map();
}

/** The person's delivery steps for one page or notification: offsets unscaled, channels named. */
export function deliveryPlanFor(
  accountUser: { user: UserChannelDefaults },
  template: string,
  alert: AlertRecord | null,
  rule: NotificationRuleDefinition | null,
  at: number,
): DeliveryStep[] {
  const plan = pickChannels(
    rule,
    accountUser.user,
    { alert: alert ? (alertToV4(alert) as unknown as Record<string, unknown>) : {} },
    RULE_TYPE[template] ?? 'alert.open',
    at,
  );
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
