// The request bodies of both interfaces, for the OpenAPI document. Most are the areas' own zod
// schemas, imported as they are: the schema that validates a request is the one the document shows.
import * as z from 'zod';
import { changePasswordInput, createAccountUserInput, updateAccountUserInput } from '../account-users/schemas';
import { pushSubscriptionInput } from '../account-users/push-subscription-schemas';
import { commentInput, earlierCreateInput, earlierUpdateInput, handoffInput, v4CreateInput, v4UpdateInput } from '../alerts/schemas';
import { createEscalationPolicyInput, updateEscalationPolicyInput } from '../escalation-policies/schemas';
import {
  actionTimeInput,
  earlierCreateEventInput,
  earlierUpdateEventInput,
  overrideInput,
  v4CreateEventInput,
  v4UpdateEventInput,
} from '../events/schemas';
import { boolish, intish } from '../http/fields';
import {
  createIntegrationEarlierInput,
  createIntegrationV4Input,
  updateIntegrationEarlierInput,
  updateIntegrationV4Input,
} from '../integrations/schemas';
import { MAX_DEDUP_KEY, MAX_SUMMARY, PAGERDUTY_ACTIONS, PAGERDUTY_SEVERITIES } from '../integrations/adapters/pagerduty-event-rules';
import { createMaintenanceWindowInput, updateMaintenanceWindowInput } from '../maintenance-windows/schemas';
import { createBroadcastInput, respondInput as broadcastRespondInput, updateBroadcastInput } from '../broadcasts/schemas';
import { createTeamInput, updateTeamInput } from '../teams/schemas';
import { loginInput, passwordResetInput, passwordResetRequestInput, signupInput, updateAccountInput } from '../accounts/schemas';
import { createApiKeyInput } from '../api-keys/schemas';
import { createLogInput } from '../logs/schemas';
import { createScheduleInput, updateScheduleInput } from '../schedules/schemas';
import {
  createRouterEarlierInput,
  createRouterV4Input,
  routerTestInput,
  updateRouterEarlierInput,
  updateRouterV4Input,
} from '../routers/schemas';
import { createNotificationRuleInput, notificationRuleTestInput, updateNotificationRuleInput } from '../notification-rules/schemas';
import { createAutomationInput, updateAutomationInput } from '../automations/schemas';
import { connectSlackInput } from '../slack/schemas';

export {
  createBroadcastInput,
  updateBroadcastInput,
  broadcastRespondInput,
  createRouterEarlierInput,
  createRouterV4Input,
  routerTestInput,
  updateRouterEarlierInput,
  updateRouterV4Input,
  createNotificationRuleInput,
  notificationRuleTestInput,
  updateNotificationRuleInput,
  createAutomationInput,
  updateAutomationInput,
  actionTimeInput,
  changePasswordInput,
  pushSubscriptionInput,
  passwordResetInput,
  passwordResetRequestInput,
  createApiKeyInput,
  createLogInput,
  createScheduleInput,
  loginInput,
  signupInput,
  updateAccountInput,
  updateScheduleInput,
  commentInput,
  createAccountUserInput,
  createEscalationPolicyInput,
  createIntegrationEarlierInput,
  createIntegrationV4Input,
  createMaintenanceWindowInput,
  createTeamInput,
  earlierCreateEventInput,
  earlierCreateInput,
  earlierUpdateEventInput,
  earlierUpdateInput,
  handoffInput,
  overrideInput,
  updateAccountUserInput,
  updateEscalationPolicyInput,
  updateIntegrationEarlierInput,
  updateIntegrationV4Input,
  updateMaintenanceWindowInput,
  updateTeamInput,
  v4CreateEventInput,
  v4CreateInput,
  v4UpdateEventInput,
  v4UpdateInput,
};

// ---- described here ----------------------------------------------------------------------------

/** The earlier /broadcast and /incident creates take the earlier alert fields (destinations: users
 * and teams only). */
export const viewCreateInput = earlierCreateInput;

/** Options on an integration create or update: the `options` hash, and every top-level
 * `option_<name>` (which wins; the document adds that pattern). lib/integrations/schemas.ts
 * `optionChanges` reads them by hand; null or an empty string unsets an option. */
export const integrationOptions = z
  .object({
    token: z.string().max(512).nullable().optional(),
    capture_additional_data: boolish.nullable().optional(),
    wrapper_key: z.string().max(1024).nullable().optional(),
    rate_limit_per_minute: intish.pipe(z.number().int().min(1).max(10_000_000)).nullable().optional(),
    rate_limit_burst: intish.pipe(z.number().int().min(1).max(1_000_000)).nullable().optional(),
  })
  .catchall(z.unknown());

export const integrationOptionFields = z.object({ options: integrationOptions.optional() });

/**
 * A PagerDuty Events API v2 event (POST /v2/enqueue). lib/integrations/adapters/pagerduty-event-rules.ts
 * checks it by hand, to answer in PagerDuty's words; this is its shape for the document. Fields
 * PagerDuty does not know are ignored, as PagerDuty ignores them.
 */
const pagerDutyText = z.string().nullable().optional();
export const pagerDutyEventInput = z.looseObject({
  routing_key: z.string().min(1).describe("The integration's id: its int_ prefix id or ULID"),
  event_action: z.enum(PAGERDUTY_ACTIONS),
  dedup_key: z
    .string()
    .max(MAX_DEDUP_KEY)
    .nullable()
    .optional()
    .describe('Names the alert; required for acknowledge and resolve. A trigger without it gets one in the answer.'),
  payload: z
    .looseObject({
      summary: z.string().min(1).max(MAX_SUMMARY),
      source: z.string().min(1),
      severity: z.enum(PAGERDUTY_SEVERITIES),
      timestamp: z.string().nullable().optional().describe('ISO 8601'),
      component: pagerDutyText,
      group: pagerDutyText,
      class: pagerDutyText,
      custom_details: z.unknown().optional(),
    })
    .optional()
    .describe('Required for trigger (not read for acknowledge and resolve)'),
  images: z
    .array(z.looseObject({ src: z.string().min(1), href: pagerDutyText, alt: pagerDutyText }))
    .nullable()
    .optional(),
  links: z
    .array(z.looseObject({ href: z.string().min(1), text: pagerDutyText }))
    .nullable()
    .optional(),
  client: pagerDutyText,
  client_url: pagerDutyText,
});

export { connectSlackInput };

/** What Slack posts for a click (the request is verified by its X-Slack-Signature, docs/api.md#slack). */
export const slackInteractionForm = z.object({
  payload: z
    .string()
    .describe('The interaction as JSON: type block_actions, team.id, user.id, actions[0] (action_id, value, action_ts), response_url'),
});

/** What Slack posts for /oncall (verified by its X-Slack-Signature). */
export const slackCommandForm = z.object({
  team_id: z.string(),
  user_id: z.string(),
  command: z.string().describe('/oncall'),
  text: z.string().describe('"", "ack <tiny id>", "resolve <tiny id>", or "page <team> <title…>"'),
  response_url: z.string().optional(),
  trigger_id: z.string().optional(),
});
