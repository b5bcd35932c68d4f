// Input schemas of notification rules (api-v4.md "Notification rule"): name, enabled and the rules
// YAML (docs/api.md#escalation-and-notifications), validated by the rule engine after the schema.
import * as z from 'zod';
import { boolish, metaInput, requiredText } from '../http/fields';

export const createNotificationRuleInput = z.object({
  name: requiredText,
  enabled: boolish.optional(),
  rules: z.string().nullable().optional(),
  meta: metaInput.optional(),
});

export const updateNotificationRuleInput = createNotificationRuleInput.partial();

/** POST /api/v4/notification_rules/:id/test: the alert, and optionally whose default channels and which event. */
export const notificationRuleTestInput = z.object({
  alert: z.looseObject({}),
  account_user_id: z.string().trim().min(1).optional(),
  type: z
    .string()
    .trim()
    .regex(/^[a-z_]+\.[a-z_]+$/, 'must be an event type such as alert.open')
    .optional(),
});
