// Input schemas of alerts, one per interface (api-v4.md permitted parameters; api-earlier.md;
// docs/api.md#requests aliases: thirdparty_id, `tags` for tag_list, null inside meta means unset).
import * as z from 'zod';
import { cleanJsonData } from '../encoding/json-data';
import { boolish, idList, refineJsonData, requiredText } from '../http/fields';
import { INCIDENT_SEVERITIES, URGENCIES } from './records';

/** A list of strings; a single string is a list of one (form fields often arrive that way). */
const stringList = z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().trim().min(1)));

/** An alert's meta: free-form plain JSON data (lib/http/fields.ts jsonData), with the incident
 * fields (docs/api.md#errors) checked. */
export const alertMetaInput = z
  .object({
    incident: boolish.nullable().optional(),
    incident_severity: z.enum(INCIDENT_SEVERITIES).nullable().optional(),
    incident_message: z.string().nullable().optional(),
  })
  .catchall(z.unknown())
  .superRefine(refineJsonData())
  .transform((meta) => cleanJsonData(meta));

const urgency = z.enum(URGENCIES);
const thirdpartyId = z.string().trim().min(1).nullable().optional();

export const v4CreateInput = z.object({
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
});

export const v4UpdateInput = z.object({
  title: requiredText.optional(),
  description: z.string().nullable().optional(),
  urgency: urgency.optional(),
  meta: alertMetaInput.nullable().optional(),
  tag_list: stringList.optional(),
  tags: stringList.optional(),
  destination_team_ids: idList.optional(),
  destination_router_ids: idList.optional(),
  destination_account_user_ids: idList.optional(),
});

export const SUBTYPES = ['alert', 'broadcast', 'page'] as const;

export const earlierCreateInput = z.object({
  title: requiredText,
  description: z.string().nullable().optional(),
  urgency: urgency.optional(),
  destination_ids: idList.pipe(z.array(z.string()).min(1)),
  tags: stringList.optional(),
  meta: alertMetaInput.optional(),
  thirdparty_id: thirdpartyId,
  subtype: z.enum(SUBTYPES).optional(),
});

export const earlierUpdateInput = z.object({
  title: requiredText.optional(),
  description: z.string().nullable().optional(),
  urgency: urgency.optional(),
  destination_ids: idList.pipe(z.array(z.string()).min(1)).optional(),
  tags: stringList.optional(),
  meta: alertMetaInput.nullable().optional(),
});

export const handoffInput = z.object({ to: requiredText });
export const commentInput = z.object({ text: requiredText });

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
