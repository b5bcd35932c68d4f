// Input schemas of broadcasts (api-v4.md permitted create parameters: title, description, tag_list,
// response_requested, response_requested_by, destination_team_ids, destination_account_user_ids,
// broadcast_response_options_attributes[] (value); docs/api.md#broadcasts). Required on create: a
// title, at least one destination, and at least one response option when a response is requested.
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { boolish, idList, requiredText } from '../http/fields';
import { count, instant, prefixIdOf, tinyId, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

/** A list of strings; a single string is a list of one (form fields often arrive that way). */
const stringList = lazySchema(() =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().trim().min(1))),
);

/** An option as `{value}` (the documented form) or as its bare text; `_destroy`ed entries are dropped. */
const responseOption = lazySchema(() =>
  z.union([
    z.object({ value: requiredText.max(255), _destroy: boolish.optional() }),
    requiredText.max(255).transform((value) => ({ value, _destroy: false as boolean | undefined })),
  ]),
);

export const MAX_RESPONSE_OPTIONS = 25;

/** Rails' nested attributes also arrive keyed by index (`{"0": {"value": "Yes"}, "1": …}`): a list in key order. */
function indexedList(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries: [string, unknown][] = Object.entries(value);
  if (entries.length === 0 || !entries.every(([key]) => /^\d+$/.test(key))) return value;
  return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, entry]) => entry);
}

export const createBroadcastInput = lazyObject(() => ({
  title: requiredText.max(1024),
  description: z.string().max(16_384).nullable().optional(),
  tag_list: stringList.optional(),
  tags: stringList.optional(),
  response_requested: boolish.optional(),
  response_requested_by: z.string().trim().min(1).nullable().optional(),
  destination_team_ids: idList.optional(),
  destination_account_user_ids: idList.optional(),
  broadcast_response_options_attributes: z.preprocess(indexedList, z.array(responseOption).max(MAX_RESPONSE_OPTIONS)).optional(),
}));

/** PUT: title, description and tags change; `status` is writable only as `closed`. */
export const updateBroadcastInput = lazyObject(() => ({
  title: requiredText.max(1024).optional(),
  description: z.string().max(16_384).nullable().optional(),
  tag_list: stringList.optional(),
  tags: stringList.optional(),
  status: z.literal('closed').optional(),
}));

export const respondInput = lazyObject(() => ({
  broadcast_response_option_id: requiredText,
}));

export type CreateBroadcastInput = z.infer<typeof createBroadcastInput>;

function hasEntries(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  return Array.isArray(value) && value.some((v) => typeof v === 'string' && v.trim() !== '');
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

function liveOptions(raw: unknown): number {
  const value = indexedList(raw);
  if (!Array.isArray(value)) return 0;
  return value.filter((entry) => {
    if (typeof entry === 'string') return entry.trim() !== '';
    if (!entry || typeof entry !== 'object') return false;
    const { value: text, _destroy } = entry as { value?: unknown; _destroy?: unknown };
    return typeof text === 'string' && text.trim() !== '' && !truthy(_destroy);
  }).length;
}

/** The rules across fields: at least one destination; response options when a response is requested. */
export function createBroadcastChecks(body: Record<string, unknown>): string[] {
  const messages: string[] = [];
  if (!hasEntries(body.destination_team_ids) && !hasEntries(body.destination_account_user_ids)) {
    messages.push('destination_team_ids or destination_account_user_ids must name at least one destination');
  }
  if (truthy(body.response_requested) && liveOptions(body.broadcast_response_options_attributes) === 0) {
    messages.push('broadcast_response_options_attributes must have at least one option when response_requested is true');
  }
  return messages;
}

// ---- representations: what represent.ts returns, and the document shows ----

export const BROADCAST_STATUS_VALUES = ['queued', 'open', 'closed', 'errored'] as const;

export const BroadcastV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('broadcast'),
  account_id: ulid,
  tiny_id: tinyId,
  title: z.string(),
  description: z.string().nullable(),
  tag_list: z.array(z.string()),
  destination_team_ids: z.array(ulid),
  destination_account_user_ids: z.array(ulid),
  status: z.enum(BROADCAST_STATUS_VALUES),
  response_requested: z.boolean(),
  response_requested_by: instant.nullable(),
  broadcast_response_options: z.array(
    z.strictObject({ id: ulid, value: z.string(), position: z.number().int().min(0), broadcast_responses_count: count }),
  ),
  broadcast_responses: z.array(
    z.strictObject({
      id: ulid,
      prefix_id: prefixIdOf('response'),
      account_user_id: ulid,
      broadcast_response_option_id: ulid,
      channel: z.string(),
      created_at: instant,
    }),
  ),
  source_id: ulid,
  source_type: z.literal('AccountUser'),
  sent_at: instant.nullable(),
  closed_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createBroadcastInput, { id: 'BroadcastCreateInput' });
documentNames.add(updateBroadcastInput, { id: 'BroadcastUpdateInput' });
documentNames.add(respondInput, { id: 'BroadcastRespondInput' });
documentNames.add(BroadcastV4, { id: 'BroadcastV4' });
