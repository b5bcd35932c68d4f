// Input schemas of integrations, both interfaces (api-v4.md "Integration", api-earlier.md
// "Integration", docs/api.md#errors: `option_*` top-level parameters, `enabled` on create).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { URGENCIES } from '../alerts/records';
import { cleanJsonData, JSON_DATA_LIMITS, jsonDataProblem } from '../encoding/json-data';
import { UNSAFE_KEYS } from '../encoding/limits';
import { boolish, idList, intish, jsonData, requiredText } from '../http/fields';
import { issueMessage } from '../http/validate';
import { instant, jsonObject, prefixIdOf, tinyId, ulid, unixSeconds } from '../http/response-fields';
import { documentNames } from '../http/document-names';
import { MAX_SECONDS, MIN_INTERVAL_SECONDS } from './heartbeat-options';

const urgency = lazySchema(() => z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(URGENCIES)));

export const createIntegrationV4Input = lazyObject(() => ({
  name: requiredText,
  urgency,
  integration_type_id: requiredText,
  enabled: boolish.optional(),
  account_user_ids: idList.optional(),
  router_ids: idList.optional(),
  team_ids: idList.optional(),
}));

export const updateIntegrationV4Input = lazyObject(() => ({
  name: requiredText.optional(),
  urgency: urgency.optional(),
  enabled: boolish.optional(),
  account_user_ids: idList.optional(),
  router_ids: idList.optional(),
  team_ids: idList.optional(),
}));

export const createIntegrationEarlierInput = lazyObject(() => ({
  name: requiredText,
  type: requiredText,
  // Required, with at least one entry, except for an outgoing webhook (checked with the type).
  destination_ids: idList.optional(),
  enabled: boolish.optional(),
  urgency: urgency.optional(),
  meta: jsonData().optional(),
}));

export const updateIntegrationEarlierInput = lazyObject(() => ({
  name: requiredText.optional(),
  type: requiredText.optional(),
  destination_ids: idList.pipe(z.array(z.string()).min(1)).optional(),
  enabled: boolish.optional(),
  urgency: urgency.optional(),
  meta: jsonData().optional(),
}));

// ---- options ----------------------------------------------------------------------------------

/** Options the service itself reads, besides the catalogue's type options. */
export const SERVICE_OPTIONS = ['rate_limit_per_minute', 'rate_limit_burst'] as const;

const optionSchemas: Record<string, z.ZodType> = {
  token: lazySchema(() => z.string().trim().max(512)),
  capture_additional_data: boolish,
  wrapper_key: lazySchema(() => z.string().trim().max(1024)),
  rate_limit_per_minute: lazySchema(() => intish.pipe(z.number().int().min(1).max(10_000_000))),
  rate_limit_burst: lazySchema(() => intish.pipe(z.number().int().min(1).max(1_000_000))),
};

/**
 * The options a request sets: its `options` hash, then every top-level `option_<name>` (which wins).
 * Known options are validated and normalized (form posts send "true" and "30"); a null or empty value
 * unsets an option. Returns null when the request names no option at all.
 */
export function optionChanges(body: Record<string, unknown>, messages: string[]): Record<string, unknown> | null {
  const changes: Record<string, unknown> = {};
  const origin: Record<string, string> = {};
  let named = false;
  if (body.options !== undefined && body.options !== null) {
    if (typeof body.options !== 'object' || Array.isArray(body.options)) {
      messages.push('options must be an object');
    } else {
      named = true;
      for (const [name, value] of Object.entries(body.options as Record<string, unknown>)) {
        if (UNSAFE_KEYS.has(name)) continue;
        changes[name] = value;
        origin[name] = `options.${name}`;
      }
    }
  }
  for (const [key, value] of Object.entries(body)) {
    if (!key.startsWith('option_') || key.length <= 'option_'.length) continue;
    named = true;
    const name = key.slice('option_'.length);
    if (UNSAFE_KEYS.has(name)) continue;
    changes[name] = value;
    origin[name] = key;
  }
  if (!named) return null;
  const normalized: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
      normalized[name] = null;
      continue;
    }
    // Own entries only: an option named `hasOwnProperty` or `constructor` is no schema.
    const schema = Object.hasOwn(optionSchemas, name) ? optionSchemas[name] : undefined;
    if (!schema) {
      // Another type's option, kept as sent: plain JSON data only (lib/encoding/json-data.ts).
      const problem = jsonDataProblem(value, JSON_DATA_LIMITS);
      if (problem) messages.push(`${[origin[name], ...problem.path].join('.')} ${problem.message}`);
      else normalized[name] = cleanJsonData(value);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) normalized[name] = parsed.data;
    else messages.push(`${origin[name]} ${issueMessage(parsed.error.issues[0], value).replace(/^body /, '')}`);
  }
  return normalized;
}

/** Options on an integration create or update: the `options` hash, and every top-level
 * `option_<name>` (which wins; its name in the document adds that pattern). `optionChanges` above
 * reads them by hand; null or an empty string unsets an option. */
export const integrationOptions = lazySchema(() =>
  z
    .object({
      token: z.string().max(512).nullable().optional(),
      capture_additional_data: boolish.nullable().optional(),
      wrapper_key: z.string().max(1024).nullable().optional(),
      rate_limit_per_minute: intish.pipe(z.number().int().min(1).max(10_000_000)).nullable().optional(),
      rate_limit_burst: intish.pipe(z.number().int().min(1).max(1_000_000)).nullable().optional(),
      // A heartbeat's (lib/integrations/heartbeat-options.ts checks them with the type).
      interval_seconds: intish.pipe(z.number().int().min(MIN_INTERVAL_SECONDS).max(MAX_SECONDS)).nullable().optional(),
      grace_seconds: intish.pipe(z.number().int().min(0).max(MAX_SECONDS)).nullable().optional(),
    })
    .catchall(z.unknown()),
);

export const integrationOptionFields = lazyObject(() => ({ options: integrationOptions.optional() }));

// ---- representations: what represent.ts returns, and the document shows ----

const shownUrgency = lazySchema(() => z.enum(URGENCIES));

/** The integration's inbound address, `<base URL>/integration/<int_ id>`, on the host the request reached. */
const inboundUrl = lazySchema(() => z.url({ protocol: /^https?$/ }));

export const IntegrationTypeV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('integrationType'),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  options: z.array(
    z.strictObject({
      name: z.string(),
      type: z.enum(['string', 'boolean', 'array', 'integer']),
      description: z.string(),
      default: z.union([z.string(), z.boolean(), z.array(z.string()), z.number()]).optional(),
    }),
  ),
}));

/** A heartbeat integration's state (docs/api.md#heartbeats): `waiting` before its first beat, `up`,
 * `missed` once its deadline passed without one. */
export const HeartbeatV4 = lazyStrictObject(() => ({
  status: z.enum(['waiting', 'up', 'missed']),
  last_beat_at: instant.nullable(),
  next_due_at: instant,
}));

/** The same on the earlier interface: its other timestamps are Unix seconds (contract §1). */
export const HeartbeatEarlier = lazyStrictObject(() => ({
  status: z.enum(['waiting', 'up', 'missed']),
  last_beat: unixSeconds.nullable(),
  next_due: unixSeconds,
}));

export const IntegrationV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('integration'),
  url: inboundUrl,
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  enabled: z.boolean(),
  urgency: shownUrgency,
  integration_type_id: ulid,
  integration_type: IntegrationTypeV4.nullable(),
  options: jsonObject,
  account_user_ids: z.array(ulid),
  router_ids: z.array(ulid),
  team_ids: z.array(ulid),
  /** Heartbeat integrations only. */
  heartbeat: HeartbeatV4.optional(),
  created_at: instant,
  updated_at: instant,
}));

export const IntegrationEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('integration'),
  url: inboundUrl,
  tinyId,
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  urgency: shownUrgency,
  destination_ids: z.array(prefixIdOf('team', 'user', 'accountUser', 'router', 'schedule')),
  options: jsonObject,
  meta: jsonObject,
  /** Heartbeat integrations only. */
  heartbeat: HeartbeatEarlier.optional(),
  createdAt: instant,
  updatedAt: instant,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createIntegrationV4Input, { id: 'IntegrationCreateInput' });
documentNames.add(updateIntegrationV4Input, { id: 'IntegrationUpdateInput' });
documentNames.add(createIntegrationEarlierInput, { id: 'IntegrationCreateEarlierInput' });
documentNames.add(updateIntegrationEarlierInput, { id: 'IntegrationUpdateEarlierInput' });
// Every top-level option_<name> field is read as an option too (optionChanges).
documentNames.add(integrationOptionFields, { id: 'IntegrationOptionsInput', jsonSchema: { patternProperties: { '^option_.+': {} } } });
documentNames.add(IntegrationTypeV4, { id: 'IntegrationTypeV4' });
documentNames.add(HeartbeatV4, { id: 'HeartbeatV4' });
documentNames.add(HeartbeatEarlier, { id: 'HeartbeatEarlier' });
documentNames.add(IntegrationV4, { id: 'IntegrationV4' });
documentNames.add(IntegrationEarlier, { id: 'IntegrationEarlier' });
