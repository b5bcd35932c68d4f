// POST /api/v4/notification_rules (account admins, docs/api.md#roles), and the earlier POST /router of type
// notification, which names the same object.
import { requireAdmin } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newEntity } from '../store/entity-store';
import type { NotificationRuleRecord } from './records';
import { checkedNotificationRules } from './rules-text';
import { createNotificationRuleInput } from './schemas';
import { insertNotificationRule } from './store';

export interface NotificationRuleFields {
  name: string;
  enabled?: boolean;
  rules?: string | null;
  meta?: Record<string, unknown>;
}

/** Stores a new rule from fields already read (the YAML is checked here); the caller checked the role. */
export async function insertNewNotificationRule(
  accountId: string,
  fields: NotificationRuleFields,
  yamlField = 'rules',
): Promise<NotificationRuleRecord> {
  const record: NotificationRuleRecord = {
    ...newEntity(accountId),
    name: fields.name,
    enabled: fields.enabled ?? true,
    rules: await checkedNotificationRules(fields.rules ?? null, yamlField),
    meta: withoutNulls(fields.meta),
  };
  await insertNotificationRule(record);
  return record;
}

export async function createNotificationRule(principal: Principal, body: unknown): Promise<NotificationRuleRecord> {
  requireAdmin(principal, 'create notification rules');
  const input = parseInput(createNotificationRuleInput, body);
  return insertNewNotificationRule(principal.accountId, input);
}
