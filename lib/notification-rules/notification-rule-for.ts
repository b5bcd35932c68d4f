// The notification rule that decides how an account user is paged (docs/api.md#escalation-and-notifications), for escalation:
// escalation passes the answer to pickChannels (lib/rule-engine), which falls back to the user's default
// channels when the answer is null.
import type { AccountUserRecord } from '../account-users/records';
import { prefixId } from '../ids';
import type { NotificationRuleDefinition } from '../rule-engine/pick-channels';
import { notificationRulesFor } from '../rule-engine/notification-rules';
import { getNotificationRule } from './store';
import { whenLoaded } from '../on-first-use';

/**
 * The account user's rule, parsed and ready for pickChannels; null when the user has none, when it
 * is disabled or holds no rules, or when the pointer names a rule that no longer exists.
 */
export async function notificationRuleFor(
  accountUser: Pick<AccountUserRecord, 'account_id' | 'notification_rule_id'>,
): Promise<NotificationRuleDefinition | null> {
  if (!accountUser.notification_rule_id) return null;
  const record = await getNotificationRule(accountUser.account_id, accountUser.notification_rule_id);
  if (!record || !record.enabled || record.rules === null) return null;
  const text = record.rules;
  const parsed = await whenLoaded(() => notificationRulesFor(text));
  if (!parsed.ok) return null;
  return { id: prefixId('notificationRule', record.id), enabled: true, rules: parsed.value };
}
