// The two representations of an alert (docs/api.md#interfaces, docs/api.md#ids): v4 (snake_case, ULID references) and the
// earlier interface (prefix ids, tinyId, ISO createdAt/updatedAt and Unix-second timestamps).
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { EARLIER_COMMON_ATTRIBUTES, V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { AlertRecord, CommentRecord } from './records';
import type * as z from 'zod';
import type { AlertEarlier, AlertV4, CommentV4 } from './schemas';

export function alertToV4(alert: AlertRecord): z.input<typeof AlertV4> {
  return {
    id: alert.id,
    prefix_id: prefixId('alert', alert.id),
    account_id: alert.account_id,
    tiny_id: alert.tiny_id,
    title: alert.title,
    description: alert.description,
    urgency: alert.urgency,
    status: alert.status,
    tag_list: alert.tag_list,
    source_type: alert.source_type,
    source_id: alert.source_id,
    source_log_id: alert.source_log_id,
    thirdparty_id: alert.thirdparty_id,
    dedup_count: alert.dedup_count,
    dedup_keys: alert.dedup_keys,
    meta: alert.meta,
    /** What the sender said beyond title and description (the earlier interface's field, shown here too). */
    additional_data: alert.additional_data ?? [],
    destination_team_ids: alert.destination_team_ids,
    destination_router_ids: alert.destination_router_ids,
    destination_account_user_ids: alert.destination_account_user_ids,
    acknowledged_at: alert.acknowledged_at,
    resolved_at: alert.resolved_at,
    created_at: alert.created_at,
    updated_at: alert.updated_at,
  };
}

export const alertV4ListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    tiny_id: 'number',
    title: 'string',
    description: 'string',
    urgency: 'string',
    status: 'string',
    tag_list: 'array',
    source_type: 'string',
    source_id: 'string',
    source_log_id: 'string',
    thirdparty_id: 'string',
    dedup_count: 'number',
    dedup_keys: 'array',
    meta: 'object',
    additional_data: 'array',
    destination_team_ids: 'array',
    destination_router_ids: 'array',
    destination_account_user_ids: 'array',
    acknowledged_at: 'datetime',
    resolved_at: 'datetime',
  },
};

const unixSeconds = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);
const prefixed = (kind: Parameters<typeof prefixId>[0], id: string | null) => (id ? prefixId(kind, id) : null);

/** The earlier interface's destination_ids: teams, users (`usr_`, the person behind each account
 * user), routers and schedules, as prefix ids. */
export function destinationIdsOf(alert: AlertRecord): string[] {
  return [
    ...alert.destination_team_ids.map((id) => prefixId('team', id)),
    ...alert.destination_account_user_ids.map((id) =>
      alert.destination_users[id] ? prefixId('user', alert.destination_users[id]) : prefixId('accountUser', id),
    ),
    ...alert.destination_router_ids.map((id) => prefixId('router', id)),
    ...alert.destination_schedule_ids.map((id) => prefixId('schedule', id)),
  ];
}

export function sourcePrefixId(alert: AlertRecord): string {
  if (alert.source_type === 'Integration') return prefixId('integration', alert.source_id);
  return alert.source_user_id ? prefixId('user', alert.source_user_id) : prefixId('accountUser', alert.source_id);
}

export function alertToEarlier(alert: AlertRecord): z.input<typeof AlertEarlier> {
  return {
    sid: prefixId('account', alert.account_id),
    id: prefixId('alert', alert.id),
    tinyId: alert.tiny_id,
    createdAt: alert.created_at,
    updatedAt: alert.updated_at,
    meta: alert.meta,
    parent_id: prefixed('alert', alert.parent_id),
    thirdparty_id: alert.thirdparty_id,
    destination_ids: destinationIdsOf(alert),
    title: alert.title,
    description: alert.description,
    type: alert.type,
    subtype: alert.subtype,
    status: alert.status,
    urgency: alert.urgency,
    d_team_id: prefixed('team', alert.assigned_team_id),
    d_user_id: prefixed('user', alert.assigned_user_id),
    s_log_id: prefixed('log', alert.source_log_id),
    created: Math.floor(Date.parse(alert.created_at) / 1000),
    acknowledged: unixSeconds(alert.acknowledged_at),
    acknowledgedby: alert.acknowledged_by,
    resolved: unixSeconds(alert.resolved_at),
    resolvedby: alert.resolved_by,
    archived: unixSeconds(alert.archived_at),
    archivedby: alert.archived_by,
    livecall: null,
    source_id: sourcePrefixId(alert),
    response_requested: false,
    responses: [] as string[],
    responses_recorded: {},
    tags: alert.tag_list,
    additional_data: alert.additional_data,
    // Stakeholder objects are kept as ULIDs; a person named by a router's stakeholder action keeps its usr_/acu_ id.
    stakeholder_ids: alert.stakeholder_ids.map((id) => (id.includes('_') ? id : prefixId('stakeholder', id))),
    handoffs: alert.handoffs,
  };
}

export const alertEarlierListSpec: ListSpec = {
  attributes: {
    ...EARLIER_COMMON_ATTRIBUTES,
    tinyId: 'number',
    parent_id: 'string',
    thirdparty_id: 'string',
    destination_ids: 'array',
    title: 'string',
    description: 'string',
    type: 'string',
    subtype: 'string',
    status: 'string',
    urgency: 'string',
    d_team_id: 'string',
    d_user_id: 'string',
    s_log_id: 'string',
    created: 'number',
    acknowledged: 'number',
    acknowledgedby: 'string',
    resolved: 'number',
    resolvedby: 'string',
    archived: 'number',
    archivedby: 'string',
    livecall: 'string',
    source_id: 'string',
    response_requested: 'boolean',
    responses: 'array',
    responses_recorded: 'object',
    tags: 'array',
    additional_data: 'array',
    stakeholder_ids: 'array',
    handoffs: 'array',
  },
};

export function commentToV4(comment: CommentRecord): z.input<typeof CommentV4> {
  return {
    id: comment.id,
    prefix_id: prefixId('comment', comment.id),
    account_id: comment.account_id,
    alert_id: comment.alert_id,
    account_user_id: comment.account_user_id,
    text: comment.text,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
  };
}

export const commentListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    alert_id: 'string',
    account_user_id: 'string',
    text: 'string',
  },
  search: ['text'],
};
