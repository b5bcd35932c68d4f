// Input schemas of account users (api-v4.md permitted parameters, docs/api.md#errors aliases).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { boolish, idList } from '../http/fields';
import { instant, prefixIdOf, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';
import { CHANNELS } from '../notify/records';

const email = lazySchema(() => z.string().trim().toLowerCase().max(254).pipe(z.email()));
const destroy = lazySchema(() => boolish.optional());

export const emailAttributes = lazyObject(() => ({
  id: z.string().trim().optional(),
  email: email.optional(),
  primary: boolish.optional(),
  _destroy: destroy,
}));

export const phoneAttributes = lazyObject(() => ({
  id: z.string().trim().optional(),
  phone: z.string().trim().optional(),
  primary: boolish.optional(),
  _destroy: destroy,
}));

// Form encoding with indexes (`emails_attributes[0][email]`) may also arrive as an object keyed by index.
const fromIndexedForm = <T extends z.ZodType>(list: T) =>
  z.preprocess((value) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.values(value) : value), list);
const listOf = <T extends z.ZodType>(item: T) => fromIndexedForm(z.array(item));

const notifyFlags = () => ({
  notify_push: boolish.optional(),
  notify_email: boolish.optional(),
  notify_sms: boolish.optional(),
  notify_voice: boolish.optional(),
  notify_slack: boolish.optional(),
});

/** What a Slack user id looks like (`U…`, or `W…` in Enterprise Grid). */
export const SLACK_USER_ID = /^[UW][A-Z0-9]{2,20}$/;

/** A Slack user id; null unlinks the person. */
export const slackUserId = lazySchema(() =>
  z
    .string()
    .trim()
    .refine((value) => SLACK_USER_ID.test(value), {
      message: "must be a Slack user id such as U0123ABCD (in Slack: the member's profile, More, Copy member ID)",
    })
    .nullable(),
);

export const rolesInput = lazyObject(() => ({
  admin: boolish.optional(),
  billing: boolish.optional(),
  broadcaster: boolish.optional(),
  communicator: boolish.optional(),
}));

export const createAccountUserInput = lazyObject(() => ({
  notification_rule_id: z.string().trim().min(1).nullable().optional(),
  slack_user_id: slackUserId.optional(),
  roles: rolesInput.optional(),
  member_team_ids: idList.optional(),
  team_ids: idList.optional(),
  user_attributes: z.object({
    name: z.string().trim().min(1),
    time_zone: z.string().trim().min(1).optional(),
    ...notifyFlags(),
    emails_attributes: fromIndexedForm(z.array(emailAttributes.extend({ email })).min(1)),
    phones_attributes: listOf(phoneAttributes).optional(),
  }),
}));

export const updateAccountUserInput = lazyObject(() => ({
  notification_rule_id: z.string().trim().min(1).nullable().optional(),
  slack_user_id: slackUserId.optional(),
  roles: rolesInput.optional(),
  member_team_ids: idList.optional(),
  team_ids: idList.optional(),
  user_attributes: z
    .object({
      name: z.string().trim().min(1).optional(),
      time_zone: z.string().trim().min(1).optional(),
      ...notifyFlags(),
      emails_attributes: listOf(emailAttributes).optional(),
      phones_attributes: listOf(phoneAttributes).optional(),
    })
    .optional(),
}));

export type CreateAccountUserInput = z.infer<typeof createAccountUserInput>;
export type UpdateAccountUserInput = z.infer<typeof updateAccountUserInput>;
export type EmailInput = z.infer<typeof emailAttributes>;
export type PhoneInput = z.infer<typeof phoneAttributes>;

/** A new password: at least 8 characters (docs/api.md#authentication); the upper bound keeps hashing cheap. */
export const newPassword = lazySchema(() => z.string().min(8).max(1000));

export const changePasswordInput = lazyObject(() => ({
  current_password: z.string().min(1),
  password: newPassword,
}));

/** POST /api/v4/account_users/:id/test_notification: the channel to try. */
export const testNotificationInput = lazyObject(() => ({ channel: z.enum(CHANNELS) }));

// ---- representations: what represent.ts returns, and the document shows ----

export const UserV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('user'),
  name: z.string(),
  time_zone: z.string(),
  notify_push: z.boolean(),
  notify_email: z.boolean(),
  notify_sms: z.boolean(),
  notify_voice: z.boolean(),
  notify_slack: z.boolean(),
  emails: z.array(z.strictObject({ id: ulid, prefix_id: prefixIdOf('email'), email: z.string(), primary: z.boolean() })),
  phones: z.array(
    z.strictObject({
      id: ulid,
      prefix_id: prefixIdOf('phone'),
      phone: z.string(),
      primary: z.boolean(),
      country: z.string().nullable(),
      blocked: z.boolean(),
    }),
  ),
  created_at: instant,
  updated_at: instant,
}));

export const AccountUserV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('accountUser'),
  account_id: ulid,
  user_id: ulid,
  roles: z.strictObject({ admin: z.boolean(), billing: z.boolean(), broadcaster: z.boolean(), communicator: z.boolean() }),
  notification_rule_id: z.string().nullable(),
  slack_user_id: z.string().nullable(),
  user: UserV4,
  /** Set while the account's identity provider has the person deactivated (SCIM active: false). */
  deactivated_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(changePasswordInput, { id: 'PasswordChangeInput' });
documentNames.add(createAccountUserInput, { id: 'AccountUserCreateInput' });
documentNames.add(updateAccountUserInput, { id: 'AccountUserUpdateInput' });
documentNames.add(testNotificationInput, { id: 'TestNotificationInput' });
documentNames.add(AccountUserV4, { id: 'AccountUserV4' });
