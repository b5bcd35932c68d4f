// The two representations of a notification (docs/api.md#escalation-and-notifications): v4 shows docs/api.md#escalation-and-notifications's fields; the earlier
// interface its own names (user_id as usr_…, source_id the alert's alt_… id, Unix-second sent and
// delivered, cost, provider_status, err). `sending` is internal and shows as `queued`.
import { prefixId } from '../ids';
import { EARLIER_COMMON_ATTRIBUTES, V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { ListSpec } from '../list/query';
import type { NotificationRecord } from './records';
import type * as z from 'zod';
import type { NotificationEarlier, NotificationV4 } from './schemas';

const shownStatus = (record: NotificationRecord) => (record.status === 'sending' ? 'queued' : record.status);
const unixSeconds = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);

export function notificationToV4(record: NotificationRecord): z.input<typeof NotificationV4> {
  return {
    id: record.id,
    prefix_id: prefixId('notification', record.id),
    account_id: record.account_id,
    account_user_id: record.account_user_id,
    alert_id: record.alert_id,
    broadcast_id: record.broadcast_id,
    workflow_id: record.workflow_id,
    channel: record.channel,
    provider: record.provider,
    provider_message_id: record.provider_message_id,
    provider_status: record.provider_status,
    template: record.template,
    to: record.to,
    subject: record.subject,
    message: record.message,
    status: shownStatus(record),
    sent_at: record.sent_at,
    delivered_at: record.delivered_at,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function notificationToEarlier(record: NotificationRecord): z.input<typeof NotificationEarlier> {
  return {
    sid: prefixId('account', record.account_id),
    id: prefixId('notification', record.id),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    meta: {},
    thirdparty_id: record.provider_message_id,
    source_id: record.alert_id ? prefixId('alert', record.alert_id) : null,
    user_id: record.user_id ? prefixId('user', record.user_id) : null,
    group_id: record.group_id ? prefixId('notification', record.group_id) : null,
    workflow_id: record.workflow_id ? prefixId('workflow', record.workflow_id) : null,
    stakeholder_id: null,
    channel: record.channel,
    provider: record.provider,
    template: record.template,
    to: record.to,
    from: record.from,
    direction: 'OUTGOING' as const,
    subject: record.subject,
    message: record.message,
    cost: record.cost,
    status: shownStatus(record),
    provider_status: record.provider_status,
    sent: unixSeconds(record.sent_at),
    delivered: unixSeconds(record.delivered_at),
    err: record.err,
  };
}

export const notificationV4ListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    account_user_id: 'string',
    alert_id: 'string',
    broadcast_id: 'string',
    workflow_id: 'string',
    channel: 'string',
    provider: 'string',
    provider_message_id: 'string',
    provider_status: 'string',
    template: 'string',
    to: 'string',
    subject: 'string',
    message: 'string',
    status: 'string',
    sent_at: 'datetime',
    delivered_at: 'datetime',
  },
  search: ['subject', 'message', 'to'],
};

export const notificationEarlierListSpec: ListSpec = {
  attributes: {
    ...EARLIER_COMMON_ATTRIBUTES,
    thirdparty_id: 'string',
    source_id: 'string',
    user_id: 'string',
    group_id: 'string',
    workflow_id: 'string',
    stakeholder_id: 'string',
    channel: 'string',
    provider: 'string',
    template: 'string',
    to: 'string',
    from: 'string',
    direction: 'string',
    subject: 'string',
    message: 'string',
    cost: 'number',
    status: 'string',
    provider_status: 'string',
    sent: 'number',
    delivered: 'number',
    err: 'array',
  },
  search: ['subject', 'message', 'to'],
  // The v4 names of the two indexed filters are understood here too.
  reserved: ['alert_id', 'account_user_id'],
};
