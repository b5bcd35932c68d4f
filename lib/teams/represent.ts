// The v4 representation of a team (api-v4.md "Team").
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { TeamRecord } from './records';
import type * as z from 'zod';
import type { TeamV4 } from './schemas';

export function teamToV4(record: TeamRecord): z.input<typeof TeamV4> {
  return {
    id: record.id,
    prefix_id: prefixId('team', record.id),
    account_id: record.account_id,
    tiny_id: record.tiny_id,
    name: record.name,
    schedule_id: record.schedule_id,
    escalation_policy_id: record.escalation_policy_id,
    member_account_user_ids: record.member_account_user_ids ?? [],
    admin_account_user_ids: record.admin_account_user_ids ?? [],
    drop_notifications: record.drop_notifications,
    handoff_notifications: record.handoff_notifications,
    drop_notification_account_user_ids: record.drop_notification_account_user_ids,
    handoff_notification_account_user_ids: record.handoff_notification_account_user_ids,
    notes: record.notes,
    attachments: record.attachments,
    chat_webhooks: record.chat_webhooks ?? [],
    meta: record.meta,
    slack_channel_id: record.slack_channel_id ?? null,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const teamListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    tiny_id: 'number',
    name: 'string',
    schedule_id: 'string',
    escalation_policy_id: 'string',
    member_account_user_ids: 'array',
    admin_account_user_ids: 'array',
    drop_notifications: 'string',
    handoff_notifications: 'string',
    drop_notification_account_user_ids: 'array',
    handoff_notification_account_user_ids: 'array',
    notes: 'string',
    attachments: 'object',
    chat_webhooks: 'array',
    'chat_webhooks.type': 'array',
    meta: 'object',
    slack_channel_id: 'string',
  },
  search: ['name', 'notes'],
};

export const TEAM_REFERENCE_FILTERS = {
  id: 'team',
  schedule_id: 'schedule',
  escalation_policy_id: 'escalationPolicy',
  member_account_user_ids: 'accountUser',
  admin_account_user_ids: 'accountUser',
  drop_notification_account_user_ids: 'accountUser',
  handoff_notification_account_user_ids: 'accountUser',
} as const;
