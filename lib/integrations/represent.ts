// The two representations of an integration (docs/api.md#interfaces, docs/api.md#ids) and of an integration type.
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { EARLIER_COMMON_ATTRIBUTES, V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import { findIntegrationType, type IntegrationType } from './integration-types';
import type { IntegrationRecord } from './records';
import type { HeartbeatView } from './heartbeats';
import { shownOptions } from './outgoing-webhook-options';
import type * as z from 'zod';
import type { IntegrationEarlier, IntegrationTypeV4, IntegrationV4 } from './schemas';

export function integrationTypeToV4(type: IntegrationType): z.input<typeof IntegrationTypeV4> {
  return {
    id: type.id,
    prefix_id: type.prefixId,
    name: type.name,
    slug: type.slug,
    description: type.description,
    options: type.options.map((option) => ({ ...option })),
  };
}

export const integrationTypeListSpec: ListSpec = {
  attributes: {
    id: 'string',
    prefix_id: 'string',
    name: 'string',
    slug: 'string',
    description: 'string',
    options: 'array',
  },
};

/** The catalogue slug of an integration's type ('webhook' when the type left the catalogue). */
export function slugOf(record: IntegrationRecord): string {
  return findIntegrationType(record.integration_type_id)?.slug ?? 'webhook';
}

/** The inbound address senders post to (docs/api.md#inbound-webhooks): `<base>/integration/<int_ id>`. */
export function inboundUrlOf(record: Pick<IntegrationRecord, 'id'>, baseUrl: string): string {
  return `${baseUrl}/integration/${prefixId('integration', record.id)}`;
}

/** `baseUrl`: where clients reach this API (lib/http/base-url.ts), for the integration's `url`. */
/** `heartbeat`: a heartbeat integration's state (heartbeats.ts heartbeatViewOf); absent on other types. */
export function integrationToV4(record: IntegrationRecord, baseUrl: string, heartbeat?: HeartbeatView): z.input<typeof IntegrationV4> {
  const type = findIntegrationType(record.integration_type_id);
  return {
    id: record.id,
    prefix_id: prefixId('integration', record.id),
    url: inboundUrlOf(record, baseUrl),
    account_id: record.account_id,
    tiny_id: record.tiny_id,
    name: record.name,
    enabled: record.enabled,
    urgency: record.urgency,
    integration_type_id: record.integration_type_id,
    integration_type: type ? integrationTypeToV4(type) : null,
    options: shownOptions(record.options),
    account_user_ids: [...record.account_user_ids],
    router_ids: [...record.router_ids],
    team_ids: [...record.team_ids],
    ...(heartbeat
      ? {
          heartbeat: {
            status: heartbeat.status,
            last_beat_at: heartbeat.last_beat_at === null ? null : new Date(heartbeat.last_beat_at).toISOString(),
            next_due_at: new Date(heartbeat.next_due_at).toISOString(),
          },
        }
      : {}),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const integrationListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    tiny_id: 'number',
    name: 'string',
    enabled: 'boolean',
    urgency: 'string',
    integration_type_id: 'string',
    integration_type: 'object',
    url: 'string',
    options: 'object',
    account_user_ids: 'array',
    router_ids: 'array',
    team_ids: 'array',
    heartbeat: 'object',
  },
  search: ['name'],
};

/** Receivers as the earlier interface names them: teams, users (not account users), routers, schedules. */
export function destinationIdsOf(record: IntegrationRecord): string[] {
  return [
    ...record.team_ids.map((id) => prefixId('team', id)),
    ...record.account_user_ids.map((id) =>
      record.account_user_user_ids[id] ? prefixId('user', record.account_user_user_ids[id]) : prefixId('accountUser', id),
    ),
    ...record.router_ids.map((id) => prefixId('router', id)),
    ...record.schedule_ids.map((id) => prefixId('schedule', id)),
  ];
}

export function integrationToEarlier(
  record: IntegrationRecord,
  baseUrl: string,
  heartbeat?: HeartbeatView,
): z.input<typeof IntegrationEarlier> {
  const seconds = (ms: number) => Math.floor(ms / 1000);
  return {
    sid: prefixId('account', record.account_id),
    id: prefixId('integration', record.id),
    url: inboundUrlOf(record, baseUrl),
    tinyId: record.tiny_id,
    name: record.name,
    type: slugOf(record),
    enabled: record.enabled,
    urgency: record.urgency,
    destination_ids: destinationIdsOf(record),
    options: shownOptions(record.options),
    meta: { ...record.meta },
    ...(heartbeat
      ? {
          heartbeat: {
            status: heartbeat.status,
            last_beat: heartbeat.last_beat_at === null ? null : seconds(heartbeat.last_beat_at),
            next_due: seconds(heartbeat.next_due_at),
          },
        }
      : {}),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
  };
}

export const integrationEarlierListSpec: ListSpec = {
  attributes: {
    ...EARLIER_COMMON_ATTRIBUTES,
    tinyId: 'number',
    name: 'string',
    type: 'string',
    url: 'string',
    enabled: 'boolean',
    urgency: 'string',
    destination_ids: 'array',
    options: 'object',
    heartbeat: 'object',
  },
  search: ['name'],
};
