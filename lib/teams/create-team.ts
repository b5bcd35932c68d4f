// POST /api/v4/teams (api-v4.md "Team", docs/api.md#roles, docs/api.md#teams): account admins create teams. Creating a
// team also creates its schedule and its escalation policy.
import { requireAdmin } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseInput } from '../http/validate';
import { insertNewEscalationPolicy } from '../escalation-policies/create-escalation-policy';
import { insertNewSchedule } from '../schedules/create-schedule';
import { chatWebhookBodyFaults, syncChatSubscription } from './chat-webhooks';
import type { NotificationTarget, TeamRecord } from './records';
import { checkSpecificUsers, createTeamInput, type CreateTeamInput } from './schemas';
import { insertTeam, nextTeamTinyId } from './store';
import { newEntity } from '../store/entity-store';

/** Who a drop or hand-off notification goes to when no one names the target. */
const DEFAULT_DROP_NOTIFICATIONS: NotificationTarget = 'team_admins';
const DEFAULT_HANDOFF_NOTIFICATIONS: NotificationTarget = 'none';

export async function createTeam(principal: Principal, body: unknown): Promise<TeamRecord> {
  requireAdmin(principal, 'create teams');
  const input = parseInput(createTeamInput, body, chatWebhookBodyFaults);
  const accountUser = (field: string, ids: string[] | undefined) => ({ field, kind: 'accountUser' as const, ids });
  const [members, admins, dropIds, handoffIds] = await resolveReferences(principal.accountId, [
    accountUser('member_account_user_ids', input.member_account_user_ids),
    accountUser('admin_account_user_ids', input.admin_account_user_ids),
    accountUser('drop_notification_account_user_ids', input.drop_notification_account_user_ids),
    accountUser('handoff_notification_account_user_ids', input.handoff_notification_account_user_ids),
  ]);
  return insertNewTeam(principal.accountId, {
    ...input,
    member_account_user_ids: members,
    admin_account_user_ids: admins,
    dropIds,
    handoffIds,
  });
}

/** The new team's fields, its people resolved to account user ids. */
export type NewTeam = Omit<CreateTeamInput, 'drop_notification_account_user_ids' | 'handoff_notification_account_user_ids'> & {
  dropIds: string[];
  handoffIds: string[];
};

/** Creates a team (with its schedule and escalation policy) of checked fields: the v4 create, and SCIM's (lib/teams/provisioned-team.ts). */
export async function insertNewTeam(accountId: string, input: NewTeam): Promise<TeamRecord> {
  const { dropIds, handoffIds } = input;
  const settings = {
    drop_notifications: input.drop_notifications ?? DEFAULT_DROP_NOTIFICATIONS,
    handoff_notifications: input.handoff_notifications ?? DEFAULT_HANDOFF_NOTIFICATIONS,
    drop_notification_account_user_ids: dropIds,
    handoff_notification_account_user_ids: handoffIds,
  };
  checkSpecificUsers(settings);

  const schedule = await insertNewSchedule(accountId, `${input.name} Schedule`);
  const policy = await insertNewEscalationPolicy(accountId, { name: `${input.name} Escalation Policy`, repeat: 0 });
  const record: TeamRecord = {
    ...newEntity(accountId),
    tiny_id: await nextTeamTinyId(accountId),
    name: input.name,
    schedule_id: schedule.id,
    escalation_policy_id: policy.id,
    member_account_user_ids: input.member_account_user_ids,
    admin_account_user_ids: input.admin_account_user_ids,
    ...settings,
    notes: input.notes ?? '',
    attachments: input.attachments ?? {},
    ...(input.chat_webhooks?.length ? { chat_webhooks: input.chat_webhooks } : {}),
    meta: withoutNulls(input.meta),
    slack_channel_id: input.slack_channel_id ?? null,
  };
  await insertTeam(record);
  await syncChatSubscription(null, record);
  return record;
}
