// The request bodies of both interfaces, for the OpenAPI document. Most are the areas' own zod
// schemas, imported as they are: the schema that validates a request is the one the document shows.
// A few use cases keep their schema inline and unexported; those are described here, field for field
// (each names its source), and test/openapi checks them against the running service.
import * as z from 'zod';
import { createAccountUserInput, updateAccountUserInput } from '../account-users/schemas';
import {
  commentInput,
  earlierCreateInput,
  earlierUpdateInput,
  handoffInput,
  v4CreateInput,
  v4UpdateInput,
} from '../alerts/schemas';
import { createEscalationPolicyInput, updateEscalationPolicyInput } from '../escalation-policies/schemas';
import {
  actionTimeInput,
  earlierCreateEventInput,
  earlierUpdateEventInput,
  overrideInput,
  v4CreateEventInput,
  v4UpdateEventInput,
} from '../events/schemas';
import { boolish, intish, requiredText } from '../http/fields';
import {
  createIntegrationEarlierInput,
  createIntegrationV4Input,
  updateIntegrationEarlierInput,
  updateIntegrationV4Input,
} from '../integrations/schemas';
import { createMaintenanceWindowInput, updateMaintenanceWindowInput } from '../maintenance-windows/schemas';
import { createTeamInput, updateTeamInput } from '../teams/schemas';
import { metaInput } from '../teams/inputs';

export {
  actionTimeInput,
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

// ---- described here: inline in their use cases ------------------------------------------------

const jsonObject = z.record(z.string(), z.unknown());

/** lib/accounts/login.ts `loginInput`. */
export const loginInput = z.object({
  username: z.string().trim().min(1),
  password: z.string().min(1),
  account_id: z.string().trim().min(1).optional(),
});

/** lib/accounts/login.ts `signupInput`. */
export const signupInput = z.object({
  account_name: z.string().trim().min(1),
  name: z.string().trim().min(1),
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(8, 'must be at least 8 characters'),
});

/** lib/accounts/account.ts `updateInput`. */
export const updateAccountInput = z.object({
  name: z.string().trim().min(1).optional(),
  meta: jsonObject.optional(),
  sso: jsonObject.optional(),
  notification_templates: jsonObject.optional(),
});

/** lib/auth/manage-api-keys.ts `createInput`. */
export const createApiKeyInput = z.object({
  name: z.string().trim().min(1),
  account_user_id: z.string().trim().min(1).optional(),
});

/** lib/schedules/manage-schedules.ts `createInput` and `updateInput`. */
export const createScheduleInput = z.object({ name: requiredText, meta: metaInput.optional() });
export const updateScheduleInput = z.object({ name: requiredText.optional(), meta: metaInput.optional() });

/** lib/logs/create-log.ts `createLogInput`. */
export const createLogInput = z.object({
  content: requiredText,
  owner_id: requiredText,
  source_id: requiredText,
  type: z.string().trim().min(1).optional(),
  subtype: z.enum(['INCOMING', 'OUTGOING']).nullable().optional(),
  level: intish.optional(),
  meta: jsonObject.optional(),
});

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
  })
  .catchall(z.unknown());

export const integrationOptionFields = z.object({ options: integrationOptions.optional() });
