// Input schemas of routers, both interfaces (api-v4.md "Router", api-earlier.md "Router", contract
// docs/api.md#routers-and-automations). The rules are a YAML text, validated by the rule engine (lib/rule-engine) after the schema.
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { boolish, metaInput, requiredText } from '../http/fields';
import { conditionReport } from '../notification-rules/schemas';
import { instant, jsonObject, prefixIdOf, tinyId, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

/** A YAML text; kept exactly as sent (no trimming). */
export const yamlText = lazySchema(() => z.string());

const receiverId = lazySchema(() => z.string().trim().min(1).nullable());

export const createRouterV4Input = lazyObject(() => ({
  name: requiredText,
  enabled: boolish.optional(),
  rules: yamlText.nullable().optional(),
  default_receiver_team_id: receiverId.optional(),
  default_receiver_account_user_id: receiverId.optional(),
  default_receiver_router_id: receiverId.optional(),
  meta: metaInput.optional(),
}));

export const updateRouterV4Input = lazySchema(() => createRouterV4Input.partial());

export const ROUTER_TYPES = ['router', 'notification'] as const;

const routerType = lazySchema(() => z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(ROUTER_TYPES)));

/** The earlier interface: the YAML arrives as `settings` or `rules` (docs/api.md#routers-and-automations). */
export const createRouterEarlierInput = lazyObject(() => ({
  name: requiredText,
  type: routerType,
  settings: yamlText.optional(),
  rules: yamlText.optional(),
  default_receiver: z.string().trim().min(1).optional(),
  enabled: boolish.optional(),
  meta: metaInput.optional(),
}));

export const updateRouterEarlierInput = lazyObject(() => ({
  name: requiredText.optional(),
  type: routerType.optional(),
  settings: yamlText.optional(),
  rules: yamlText.optional(),
  default_receiver: z.string().trim().min(1).optional(),
  enabled: boolish.optional(),
  meta: metaInput.optional(),
}));

export type EarlierRouterInput = z.infer<typeof updateRouterEarlierInput>;

/** The YAML of an earlier body, under either name; both given and different is a fault. */
export function earlierYaml(input: { settings?: string; rules?: string }, messages: string[]): { text?: string; field: string } {
  if (input.settings !== undefined && input.rules !== undefined && input.settings !== input.rules) {
    messages.push('settings and rules are two names of the router YAML: send one of them');
  }
  if (input.settings !== undefined) return { text: input.settings, field: 'settings' };
  return { text: input.rules, field: 'rules' };
}

/** POST /api/v4/routers/:id/test: the alert to route (v4 shape), and optionally the request that made it. */
export const routerTestInput = lazyObject(() => ({
  alert: z.looseObject({}),
  log: z
    .object({
      data: z.unknown().optional(),
      headers: z.looseObject({}).nullable().optional(),
    })
    .nullable()
    .optional(),
}));

// ---- representations: what represent.ts returns, and the document shows ----

export const RouterV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('router'),
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  enabled: z.boolean(),
  rules: z.string().nullable(),
  default_receiver_account_user_id: ulid.nullable(),
  default_receiver_router_id: ulid.nullable(),
  default_receiver_team_id: ulid.nullable(),
  meta: jsonObject,
  created_at: instant,
  updated_at: instant,
}));

/** GET /router/default-template/:type: the YAML text as a JSON string. */
export const DefaultTemplate = lazySchema(() => z.string());

/** POST /api/v4/routers/:id/test. */
export const RouterExplanation = lazyStrictObject(() => ({
  router_id: z.string().nullable(),
  enabled: z.boolean(),
  evaluated_at: instant,
  matched_rule: z.strictObject({ index: z.number().int(), conditions: z.array(conditionReport) }).nullable(),
  tried: z.array(z.strictObject({ index: z.number().int(), failed_condition: conditionReport.nullable() })),
  plan: z.looseObject({
    outcome: z.enum(['matched', 'no_match', 'disabled', 'invalid_rules']),
    rule_index: z.number().int().nullable(),
    actions: z.array(jsonObject),
    suppressed: z.boolean(),
    assignments: z.array(jsonObject),
    used_default: z.boolean(),
    alert_changes: jsonObject,
    warnings: z.array(z.string()),
  }),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createRouterV4Input, { id: 'RouterCreateInput' });
documentNames.add(updateRouterV4Input, { id: 'RouterUpdateInput' });
documentNames.add(routerTestInput, { id: 'RouterTestInput' });
documentNames.add(createRouterEarlierInput, { id: 'RouterCreateEarlierInput' });
documentNames.add(updateRouterEarlierInput, { id: 'RouterUpdateEarlierInput' });
documentNames.add(RouterV4, { id: 'RouterV4' });
documentNames.add(DefaultTemplate, { id: 'DefaultTemplate' });
documentNames.add(RouterExplanation, { id: 'RouterExplanation' });
