// PUT /api/v4/notification_rules/:id (account admins), and the earlier PUT /router/:id of a rule:
// only the fields sent change.
import { requireAdmin } from '../auth/permissions';
import { mergeKeys } from '../http/changes';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { findNotificationRule } from './read-notification-rules';
import type { NotificationRuleRecord } from './records';
import { checkedNotificationRules } from './rules-text';
import { updateNotificationRuleInput } from './schemas';
import { saveNotificationRule } from './store';
import { nowIso } from '../clock';

export interface NotificationRuleChanges {
  name?: string;
  enabled?: boolean;
  rules?: string | null;
  meta?: Record<string, unknown>;
}

/** Applies changes already read (the YAML is checked here) as a versioned save; a lost race is a 409. */
export async function saveNotificationRuleChanges(
  current: NotificationRuleRecord,
  changes: NotificationRuleChanges,
  yamlField = 'rules',
): Promise<NotificationRuleRecord> {
  const next: NotificationRuleRecord = {
    ...current,
    name: changes.name ?? current.name,
    enabled: changes.enabled ?? current.enabled,
    rules: changes.rules === undefined ? current.rules : await checkedNotificationRules(changes.rules, yamlField),
    meta: mergeKeys(current.meta, changes.meta),
    version: current.version + 1,
    updated_at: nowIso(),
  };
  if (!(await saveNotificationRule(next))) {
    throw new Conflict('the notification rule was changed by another request; reload and try again');
  }
  return next;
}

export async function updateNotificationRule(principal: Principal, rawId: string, body: unknown): Promise<NotificationRuleRecord> {
  const current = await findNotificationRule(principal, rawId);
  requireAdmin(principal, 'update notification rules');
  const input = parseInput(updateNotificationRuleInput, body);
  return saveNotificationRuleChanges(current, input);
}
