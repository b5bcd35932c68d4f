// DELETE /api/v4/notification_rules/:id (account admins), and the earlier DELETE /router/:id of a
// rule. Account users that used it lose their pointer (notification_rule_id becomes null), as teams
// lose a deleted escalation policy: they are paged on their default channels from then on.
import { accountUserCollection, saveAccountUser } from '../account-users/store';
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { done, updateWithRetry } from '../store/retry';
import { getAccountUser } from '../account-users/store';
import type { AccountUserRecord } from '../account-users/records';
import type { NotificationRuleRecord } from './records';
import { findNotificationRule } from './read-notification-rules';
import { removeNotificationRule } from './store';
import { nowIso } from '../clock';

async function clearPointer(accountId: string, accountUserId: string, ruleId: string): Promise<void> {
  await updateWithRetry<AccountUserRecord, void>({
    load: () => getAccountUser(accountId, accountUserId),
    edit: (current) => {
      if (!current || current.notification_rule_id !== ruleId) return done();
      return { ...current, notification_rule_id: null, version: current.version + 1, updated_at: nowIso() };
    },
    save: (next) => saveAccountUser(next),
    saved: () => undefined,
    exhausted: () => {
      throw new Error(`account user ${accountUserId} kept changing; notification rule pointer not cleared`);
    },
  });
}

export async function removeNotificationRuleOf(principal: Principal, current: NotificationRuleRecord): Promise<void> {
  requireAdmin(principal, 'delete notification rules');
  if (!(await removeNotificationRule(principal.accountId, current.id))) throw new NotFound('Notification rule not found');
  // The account's account users are one partition (a Query, not a Scan); deletes are rare.
  const users = await accountUserCollection(principal.accountId).all();
  await Promise.all(
    users.filter((user) => user.notification_rule_id === current.id).map((user) => clearPointer(principal.accountId, user.id, current.id)),
  );
}

export async function deleteNotificationRule(principal: Principal, rawId: string): Promise<void> {
  await removeNotificationRuleOf(principal, await findNotificationRule(principal, rawId));
}
