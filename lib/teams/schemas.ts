// Input schemas of teams (api-v4.md "Team": permitted create parameters, plus attachments, and on
// update the team's active schedule and escalation policy).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { Invalid } from '../http/errors';
import { idList, metaInput, refineJsonData, requiredText } from '../http/fields';
import { NOTIFICATION_TARGETS, type TeamRecord } from './records';
import { instant, jsonObject, prefixIdOf, tinyId, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';
import { CHAT_WEBHOOK_TYPES, MAX_CHAT_WEBHOOK_URL, MAX_CHAT_WEBHOOKS } from '../chat-cards/platforms';

const target = lazySchema(() => z.enum(NOTIFICATION_TARGETS));

const httpUrl = lazySchema(() =>
  requiredText.refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http or https URL'),
);

const attachment = lazyObject(() => ({ filename: requiredText, url: httpUrl }));
// Free-form in shape (a list, or an object keyed by name): plain JSON data, at most 100 of them.
const attachments = lazySchema(() =>
  z.union([z.array(attachment), z.record(z.string(), attachment)]).superRefine(refineJsonData({ maxItems: 100 })),
);
const nonEmptyIds = lazySchema(() => idList.pipe(z.array(z.string()).min(1)));

/** A team's chat webhooks, the whole list (docs/api.md#chat-webhooks); the URLs' guard is checked on save (chat-webhooks.ts). */
export const chatWebhooksInput = lazySchema(() =>
  z.array(z.object({ type: z.enum(CHAT_WEBHOOK_TYPES), url: requiredText.max(MAX_CHAT_WEBHOOK_URL) })).max(MAX_CHAT_WEBHOOKS),
);

/** A Slack channel id (public `C…`, private `G…`); null stops posting. The bot must be in the channel. */
const slackChannelId = lazySchema(() =>
  z
    .string()
    .trim()
    .refine((value) => /^[CG][A-Z0-9]{2,20}$/.test(value), {
      message: "must be a Slack channel id such as C0123ABCD (in Slack: the channel's details, at the bottom)",
    })
    .nullable(),
);

export const createTeamInput = lazyObject(() => ({
  name: requiredText,
  notes: z.string().nullable().optional(),
  meta: metaInput.optional(),
  drop_notifications: target.optional(),
  handoff_notifications: target.optional(),
  member_account_user_ids: nonEmptyIds,
  admin_account_user_ids: nonEmptyIds,
  drop_notification_account_user_ids: idList.optional(),
  handoff_notification_account_user_ids: idList.optional(),
  attachments: attachments.optional(),
  chat_webhooks: chatWebhooksInput.optional(),
  slack_channel_id: slackChannelId.optional(),
}));

export const updateTeamInput = lazyObject(() => ({
  name: requiredText.optional(),
  notes: z.string().nullable().optional(),
  meta: metaInput.optional(),
  drop_notifications: target.optional(),
  handoff_notifications: target.optional(),
  member_account_user_ids: nonEmptyIds.optional(),
  admin_account_user_ids: nonEmptyIds.optional(),
  drop_notification_account_user_ids: idList.optional(),
  handoff_notification_account_user_ids: idList.optional(),
  attachments: attachments.nullable().optional(),
  chat_webhooks: chatWebhooksInput.nullable().optional(),
  slack_channel_id: slackChannelId.optional(),
  schedule_id: z.string().trim().min(1).nullable().optional(),
  escalation_policy_id: z.string().trim().min(1).nullable().optional(),
}));

export type CreateTeamInput = z.infer<typeof createTeamInput>;
export type UpdateTeamInput = z.infer<typeof updateTeamInput>;

type NotificationSettings = Pick<
  TeamRecord,
  'drop_notifications' | 'handoff_notifications' | 'drop_notification_account_user_ids' | 'handoff_notification_account_user_ids'
>;

/** `specific_users` needs the users it names (checked on the settings a create or update would store). */
export function checkSpecificUsers(team: NotificationSettings): void {
  const messages: string[] = [];
  if (team.drop_notifications === 'specific_users' && team.drop_notification_account_user_ids.length === 0) {
    messages.push('drop_notification_account_user_ids must have at least 1 entry when drop_notifications is specific_users');
  }
  if (team.handoff_notifications === 'specific_users' && team.handoff_notification_account_user_ids.length === 0) {
    messages.push('handoff_notification_account_user_ids must have at least 1 entry when handoff_notifications is specific_users');
  }
  if (messages.length > 0) throw new Invalid(messages);
}

// ---- representations: what represent.ts returns, and the document shows ----

const shownAttachment = lazyStrictObject(() => ({ filename: z.string(), url: z.string() }));
const notificationTarget = lazySchema(() => z.enum(NOTIFICATION_TARGETS));

export const TeamV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('team'),
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  schedule_id: ulid.nullable(),
  escalation_policy_id: ulid.nullable(),
  member_account_user_ids: z.array(ulid),
  admin_account_user_ids: z.array(ulid),
  drop_notifications: notificationTarget,
  handoff_notifications: notificationTarget,
  drop_notification_account_user_ids: z.array(ulid),
  handoff_notification_account_user_ids: z.array(ulid),
  notes: z.string(),
  attachments: z.union([z.record(z.string(), shownAttachment), z.array(shownAttachment)]),
  chat_webhooks: z.array(z.strictObject({ type: z.enum(CHAT_WEBHOOK_TYPES), url: z.string() })),
  meta: jsonObject,
  slack_channel_id: z.string().nullable(),
  created_at: instant,
  updated_at: instant,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createTeamInput, { id: 'TeamCreateInput' });
documentNames.add(updateTeamInput, { id: 'TeamUpdateInput' });
documentNames.add(TeamV4, { id: 'TeamV4' });
