// POST /api/v4/notification_rules/:id/test: a dry run that explains which channels a page would use
// for an alert (docs/api.md#escalation-and-notifications through lib/rule-engine explainNotificationRule): the rule that matched, each
// of its conditions with the value it saw, the rules tried before it, and the schedule of channels.
// The user's default channels are the caller's, or those of account_user_id. No side effects.
import { getAccountUser } from '../account-users/store';
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { parseId, prefixId } from '../ids';
import { clock } from '../clock';
import { explainNotificationRule } from '../rule-engine/pick-channels';
import { findNotificationRule } from './read-notification-rules';
import { notificationRuleTestInput } from './schemas';
import { whenLoaded } from '../on-first-use';

/** The alert as rules read it: tags and tag_list are two names of one list. */
export function alertForRules(alert: Record<string, unknown>): Record<string, unknown> {
  const tags = alert.tag_list ?? alert.tags;
  return tags === undefined ? { ...alert } : { ...alert, tags, tag_list: tags };
}

export async function testNotificationRule(principal: Principal, rawId: string, body: unknown) {
  const record = await findNotificationRule(principal, rawId);
  const input = parseInput(notificationRuleTestInput, body);
  const accountUserId = input.account_user_id ? parseId('accountUser', input.account_user_id) : principal.accountUserId;
  const accountUser = accountUserId ? await getAccountUser(principal.accountId, accountUserId) : null;
  if (!accountUser) throw new Invalid(`account_user_id names no account user of this account: ${input.account_user_id}`);
  return whenLoaded(() =>
    explainNotificationRule(
      // A rule without rules yet matches nothing: the default channels, as when paging.
      { id: prefixId('notificationRule', record.id), enabled: record.enabled, rules: record.rules ?? 'rules: []\n' },
      accountUser.user,
      { alert: alertForRules(input.alert) },
      input.type ?? 'alert.open',
      clock.now(),
    ),
  );
}
