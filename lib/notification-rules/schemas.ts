// Input schemas of notification rules (api-v4.md "Notification rule"): name, enabled and the rules
// YAML (docs/api.md#escalation-and-notifications), validated by the rule engine after the schema.
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { boolish, metaInput, requiredText } from '../http/fields';
import { instant, jsonObject, prefixIdOf, tinyId, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

export const createNotificationRuleInput = lazyObject(() => ({
  name: requiredText,
  enabled: boolish.optional(),
  rules: z.string().nullable().optional(),
  meta: metaInput.optional(),
}));

export const updateNotificationRuleInput = lazySchema(() => createNotificationRuleInput.partial());

/** POST /api/v4/notification_rules/:id/test: the alert, and optionally whose default channels and which event. */
export const notificationRuleTestInput = lazyObject(() => ({
  alert: z.looseObject({}),
  account_user_id: z.string().trim().min(1).optional(),
  type: z
    .string()
    .trim()
    .regex(/^[a-z_]+\.[a-z_]+$/, 'must be an event type such as alert.open')
    .optional(),
}));

// ---- representations: what represent.ts returns, and the document shows ----

/** The earlier /router shows routers and notification rules alike (routers take it from here). */
export const RouterEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('router', 'notificationRule'),
  tinyId: tinyId.nullable(),
  createdAt: instant,
  updatedAt: instant,
  meta: jsonObject,
  name: z.string(),
  enabled: z.boolean(),
  type: z.enum(['router', 'notification']),
  default_receiver: prefixIdOf('team', 'user', 'accountUser', 'router', 'schedule').nullable(),
  settings: z.string().nullable(),
  rules: z.string().nullable(),
}));

/** One condition of a dry run: whether it held and the value it saw. */
export const conditionReport = lazySchema(() => z.looseObject({ condition: z.string(), held: z.boolean() }));

export const NotificationRuleV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('notificationRule'),
  account_id: ulid,
  name: z.string(),
  enabled: z.boolean(),
  rules: z.string().nullable(),
  meta: jsonObject,
  created_at: instant,
  updated_at: instant,
}));

/** POST /api/v4/notification_rules/:id/test. */
export const NotificationRuleExplanation = lazyStrictObject(() => ({
  notification_rule_id: z.string().nullable(),
  enabled: z.boolean(),
  type: z.string(),
  evaluated_at: instant,
  matched_rule: z.strictObject({ index: z.number().int(), conditions: z.array(conditionReport) }).nullable(),
  tried: z.array(
    z.strictObject({
      index: z.number().int(),
      skipped_for_type: z.array(z.string()).optional(),
      failed_condition: conditionReport.nullable(),
    }),
  ),
  plan: z.looseObject({
    source: z.enum(['rule', 'default']),
    reason: z.enum(['matched', 'ignored', 'no_rule', 'disabled', 'no_match', 'invalid_rules']),
    steps: z.array(z.looseObject({ at_offset_ms: z.number(), channels: z.array(z.string()) })),
  }),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createNotificationRuleInput, { id: 'NotificationRuleCreateInput' });
documentNames.add(updateNotificationRuleInput, { id: 'NotificationRuleUpdateInput' });
documentNames.add(notificationRuleTestInput, { id: 'NotificationRuleTestInput' });
documentNames.add(RouterEarlier, { id: 'RouterEarlier' });
documentNames.add(NotificationRuleV4, { id: 'NotificationRuleV4' });
documentNames.add(NotificationRuleExplanation, { id: 'NotificationRuleExplanation' });
