// The representations of a router (docs/api.md#interfaces, docs/api.md#ids, docs/api.md#routers): v4 (ULID references, three default
// receiver fields) and the earlier interface (type router, the YAML under both settings and rules,
// one default_receiver prefix id).
import { prefixId } from '../ids';
import { EARLIER_COMMON_ATTRIBUTES, V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { ListSpec } from '../list/query';
import type { RouterRecord } from './records';
import type * as z from 'zod';
import type { RouterV4 } from './schemas';
import type { RouterEarlier } from '../notification-rules/schemas';

export function routerToV4(record: RouterRecord): z.input<typeof RouterV4> {
  return {
    id: record.id,
    prefix_id: prefixId('router', record.id),
    account_id: record.account_id,
    tiny_id: record.tiny_id,
    name: record.name,
    enabled: record.enabled,
    rules: record.rules,
    default_receiver_account_user_id: record.default_receiver_account_user_id,
    default_receiver_router_id: record.default_receiver_router_id,
    default_receiver_team_id: record.default_receiver_team_id,
    meta: record.meta,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const routerListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    tiny_id: 'number',
    name: 'string',
    enabled: 'boolean',
    rules: 'string',
    default_receiver_account_user_id: 'string',
    default_receiver_router_id: 'string',
    default_receiver_team_id: 'string',
    meta: 'object',
  },
  search: ['name'],
};

/** The earlier interface's one default receiver: the first of team, user, router and schedule. */
export function defaultReceiverOf(record: RouterRecord): string | null {
  if (record.default_receiver_team_id) return prefixId('team', record.default_receiver_team_id);
  if (record.default_receiver_account_user_id) {
    return record.default_receiver_user_id
      ? prefixId('user', record.default_receiver_user_id)
      : prefixId('accountUser', record.default_receiver_account_user_id);
  }
  if (record.default_receiver_router_id) return prefixId('router', record.default_receiver_router_id);
  if (record.default_receiver_schedule_id) return prefixId('schedule', record.default_receiver_schedule_id);
  return null;
}

export function routerToEarlier(record: RouterRecord): z.input<typeof RouterEarlier> {
  return {
    sid: prefixId('account', record.account_id),
    id: prefixId('router', record.id),
    tinyId: record.tiny_id,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    meta: record.meta,
    name: record.name,
    enabled: record.enabled,
    type: 'router',
    default_receiver: defaultReceiverOf(record),
    settings: record.rules,
    rules: record.rules,
  };
}

/** /router lists routers and notification rules (type notification) in one list. */
export const earlierRouterListSpec: ListSpec = {
  attributes: {
    ...EARLIER_COMMON_ATTRIBUTES,
    tinyId: 'number',
    name: 'string',
    enabled: 'boolean',
    type: 'string',
    default_receiver: 'string',
    settings: 'string',
    rules: 'string',
  },
  search: ['name'],
};
