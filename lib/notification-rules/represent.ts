// The representations of a notification rule: v4 (/api/v4/notification_rules) and the earlier
// interface's router of type notification (/router), which has no default receiver.
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { NotificationRuleRecord } from './records';
import type * as z from 'zod';
import type { NotificationRuleV4, RouterEarlier } from './schemas';

export function notificationRuleToV4(record: NotificationRuleRecord): z.input<typeof NotificationRuleV4> {
  return {
    id: record.id,
    prefix_id: prefixId('notificationRule', record.id),
    account_id: record.account_id,
    name: record.name,
    enabled: record.enabled,
    rules: record.rules,
    meta: record.meta,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const notificationRuleListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    name: 'string',
    enabled: 'boolean',
    rules: 'string',
    meta: 'object',
  },
  search: ['name'],
};

/** As the earlier /router shows it: type notification, the YAML under both settings and rules. */
export function notificationRuleToEarlier(record: NotificationRuleRecord): z.input<typeof RouterEarlier> {
  return {
    sid: prefixId('account', record.account_id),
    id: prefixId('notificationRule', record.id),
    tinyId: null as number | null,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    meta: record.meta,
    name: record.name,
    enabled: record.enabled,
    type: 'notification',
    default_receiver: null as string | null,
    settings: record.rules,
    rules: record.rules,
  };
}
