// Input schemas of alerts, one per interface (api-v4.md permitted parameters; api-earlier.md;
// docs/api.md#requests aliases: thirdparty_id, `tags` for tag_list, null inside meta means unset).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { cleanJsonData } from '../encoding/json-data';
import { boolish, idList, refineJsonData, requiredText } from '../http/fields';
import { INCIDENT_SEVERITIES, URGENCIES } from './records';
import { additionalData, instant, jsonObject, prefixIdOf, tinyId, ulid, unixSeconds } from '../http/response-fields';
import type { AlertStatus } from './records';
import { documentNames } from '../http/document-names';

/** A list of strings; a single string is a list of one (form fields often arrive that way). */
const stringList = lazySchema(() =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().trim().min(1))),
);

/** An alert's meta: free-form plain JSON data (lib/http/fields.ts jsonData), with the incident
 * fields (docs/api.md#errors) checked. */
export const alertMetaInput = lazySchema(() =>
  z
    .object({
      incident: boolish.nullable().optional(),
      incident_severity: z.enum(INCIDENT_SEVERITIES).nullable().optional(),
      incident_message: z.string().nullable().optional(),
    })
    .catchall(z.unknown())
    .superRefine(refineJsonData())
    .transform((meta) => cleanJsonData(meta)),
);

const urgency = lazySchema(() => z.enum(URGENCIES));
const thirdpartyId = lazySchema(() => z.string().trim().min(1).nullable().optional());

export const v4CreateInput = lazyObject(() => ({
  title: requiredText,
  description: z.string().nullable().optional(),
  urgency,
  meta: alertMetaInput.optional(),
  tag_list: stringList.optional(),
  tags: stringList.optional(),
  thirdparty_id: thirdpartyId,
  destination_team_ids: idList.optional(),
  destination_router_ids: idList.optional(),
  destination_account_user_ids: idList.optional(),
}));

export const v4UpdateInput = lazyObject(() => ({
  title: requiredText.optional(),
  description: z.string().nullable().optional(),
  urgency: urgency.optional(),
  meta: alertMetaInput.nullable().optional(),
  tag_list: stringList.optional(),
  tags: stringList.optional(),
  destination_team_ids: idList.optional(),
  destination_router_ids: idList.optional(),
  destination_account_user_ids: idList.optional(),
}));

export const SUBTYPES = ['alert', 'broadcast', 'page'] as const;

export const earlierCreateInput = lazyObject(() => ({
  title: requiredText,
  description: z.string().nullable().optional(),
  urgency: urgency.optional(),
  destination_ids: idList.pipe(z.array(z.string()).min(1)),
  tags: stringList.optional(),
  meta: alertMetaInput.optional(),
  thirdparty_id: thirdpartyId,
  subtype: z.enum(SUBTYPES).optional(),
}));

export const earlierUpdateInput = lazyObject(() => ({
  title: requiredText.optional(),
  description: z.string().nullable().optional(),
  urgency: urgency.optional(),
  destination_ids: idList.pipe(z.array(z.string()).min(1)).optional(),
  tags: stringList.optional(),
  meta: alertMetaInput.nullable().optional(),
}));

export const handoffInput = lazyObject(() => ({ to: requiredText }));
export const commentInput = lazyObject(() => ({ text: requiredText }));

export type V4CreateInput = z.infer<typeof v4CreateInput>;
export type V4UpdateInput = z.infer<typeof v4UpdateInput>;
export type EarlierCreateInput = z.infer<typeof earlierCreateInput>;
export type EarlierUpdateInput = z.infer<typeof earlierUpdateInput>;

const V4_DESTINATIONS = ['destination_team_ids', 'destination_router_ids', 'destination_account_user_ids'] as const;

function hasEntries(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  return Array.isArray(value) && value.some((v) => typeof v === 'string' && v.trim() !== '');
}

/** api-v4.md: at least one destination among the three lists. */
export function v4DestinationCheck(body: Record<string, unknown>): string[] {
  return V4_DESTINATIONS.some((field) => hasEntries(body[field]))
    ? []
    : ['destination_team_ids, destination_router_ids or destination_account_user_ids must name at least one destination'];
}

// ---- representations: what represent.ts returns, and the document shows ----

export const ALERT_STATUSES = ['queued', 'open', 'acknowledged', 'resolved', 'dropped', 'suppressed', 'archived'] as const;
// Every status the record can hold is listed (a new one breaks the build here until it is).
type MissingStatus = Exclude<AlertStatus, (typeof ALERT_STATUSES)[number]>;
const _everyStatus: [MissingStatus] extends [never] ? true : never = true;
void _everyStatus;

const shownUrgency = lazySchema(() => z.enum(URGENCIES));
const alertStatus = lazySchema(() => z.enum(ALERT_STATUSES));

export const AlertV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('alert'),
  account_id: ulid,
  tiny_id: tinyId,
  title: z.string(),
  description: z.string(),
  urgency: shownUrgency,
  status: alertStatus,
  tag_list: z.array(z.string()),
  source_type: z.enum(['AccountUser', 'Integration']),
  source_id: ulid,
  source_log_id: ulid.nullable(),
  thirdparty_id: z.string().nullable(),
  dedup_count: tinyId,
  dedup_keys: z.array(z.string()),
  meta: jsonObject,
  additional_data: additionalData,
  destination_team_ids: z.array(ulid),
  destination_router_ids: z.array(ulid),
  destination_account_user_ids: z.array(ulid),
  acknowledged_at: instant.nullable(),
  resolved_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
}));

export const AlertEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('alert'),
  tinyId,
  createdAt: instant,
  updatedAt: instant,
  meta: jsonObject,
  parent_id: prefixIdOf('alert').nullable(),
  thirdparty_id: z.string().nullable(),
  destination_ids: z.array(prefixIdOf('team', 'user', 'accountUser', 'router', 'schedule')),
  title: z.string(),
  description: z.string(),
  type: z.string().nullable(),
  subtype: z.string(),
  status: alertStatus,
  urgency: shownUrgency,
  d_team_id: prefixIdOf('team').nullable(),
  d_user_id: prefixIdOf('user').nullable(),
  s_log_id: prefixIdOf('log').nullable(),
  created: unixSeconds,
  acknowledged: unixSeconds.nullable(),
  acknowledgedby: z.string().nullable(),
  resolved: unixSeconds.nullable(),
  resolvedby: z.string().nullable(),
  archived: unixSeconds.nullable(),
  archivedby: z.string().nullable(),
  livecall: z.null(),
  source_id: prefixIdOf('user', 'accountUser', 'integration'),
  response_requested: z.boolean(),
  responses: z.array(z.string()),
  responses_recorded: jsonObject,
  tags: z.array(z.string()),
  additional_data: additionalData,
  stakeholder_ids: z.array(prefixIdOf('stakeholder', 'user', 'accountUser')),
  handoffs: z.array(
    z.strictObject({
      to: prefixIdOf('user', 'team'),
      from: prefixIdOf('user', 'team'),
      time: unixSeconds,
      acknowledged: z.boolean(),
    }),
  ),
}));

export const CommentV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('comment'),
  account_id: ulid,
  alert_id: ulid,
  account_user_id: ulid,
  text: z.string(),
  created_at: instant,
  updated_at: instant,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(v4CreateInput, { id: 'AlertCreateInput' });
documentNames.add(v4UpdateInput, { id: 'AlertUpdateInput' });
documentNames.add(commentInput, { id: 'CommentCreateInput' });
documentNames.add(earlierCreateInput, { id: 'AlertCreateEarlierInput' });
documentNames.add(earlierUpdateInput, { id: 'AlertUpdateEarlierInput' });
documentNames.add(handoffInput, { id: 'HandoffEarlierInput' });
documentNames.add(AlertV4, { id: 'AlertV4' });
documentNames.add(AlertEarlier, { id: 'AlertEarlier' });
documentNames.add(CommentV4, { id: 'CommentV4' });
