// The v4 representation of an account user (api-v4.md "Account user").
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { AccountUserRecord, UserProfile } from './records';
import type * as z from 'zod';
import type { AccountUserV4, UserV4 } from './schemas';

export function userToV4(user: UserProfile): z.input<typeof UserV4> {
  return {
    id: user.id,
    prefix_id: prefixId('user', user.id),
    name: user.name,
    time_zone: user.time_zone,
    notify_push: user.notify_push,
    notify_email: user.notify_email,
    notify_sms: user.notify_sms,
    notify_voice: user.notify_voice,
    notify_slack: user.notify_slack ?? false,
    emails: user.emails.map((e) => ({ id: e.id, prefix_id: prefixId('email', e.id), email: e.email, primary: e.primary })),
    phones: user.phones.map((p) => ({
      id: p.id,
      prefix_id: prefixId('phone', p.id),
      phone: p.phone,
      primary: p.primary,
      country: p.country,
      blocked: p.blocked,
    })),
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

export function accountUserToV4(record: AccountUserRecord): z.input<typeof AccountUserV4> {
  return {
    id: record.id,
    prefix_id: prefixId('accountUser', record.id),
    account_id: record.account_id,
    user_id: record.user_id,
    roles: { ...record.roles },
    notification_rule_id: record.notification_rule_id,
    slack_user_id: record.slack_user_id ?? null,
    user: userToV4(record.user),
    deactivated_at: record.deactivated_at ?? null,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const accountUserListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    user_id: 'string',
    roles: 'object',
    notification_rule_id: 'string',
    slack_user_id: 'string',
    user: 'object',
    deactivated_at: 'datetime',
  },
  search: ['user.name', 'user.emails.email'],
};
