// PUT /api/v4/teams/:id: a team's admins may edit it too, except for re-pointing its schedule or
// policy (that would hand them control of another one).
import { Conflict, Forbidden } from '../http/errors';
import { mergeKeys } from '../http/changes';
import type { Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import { chatWebhookBodyFaults, syncChatSubscription } from './chat-webhooks';
import type { TeamRecord } from './records';
import { findTeam } from './read-teams';
import { checkSpecificUsers, updateTeamInput } from './schemas';
import { saveTeam } from './store';
import { administersTeam } from './team-admins';
import { nowIso } from '../clock';

export async function updateTeam(principal: Principal, rawId: string, body: unknown): Promise<TeamRecord> {
  const current = await findTeam(principal, rawId);
  const isAdmin = principal.roles.admin;
  if (!isAdmin && !administersTeam(principal, current)) throw new Forbidden('Only an account admin or an admin of this team may edit it');
  const input = parseInput(updateTeamInput, body, chatWebhookBodyFaults);

  const scheduleId =
    input.schedule_id === undefined ? undefined : input.schedule_id === null ? null : parseId('schedule', input.schedule_id);
  const policyId =
    input.escalation_policy_id === undefined
      ? undefined
      : input.escalation_policy_id === null
        ? null
        : parseId('escalationPolicy', input.escalation_policy_id);
  const repoints =
    (scheduleId !== undefined && scheduleId !== current.schedule_id) ||
    (policyId !== undefined && policyId !== current.escalation_policy_id);
  if (repoints && !isAdmin) throw new Forbidden("Only an account admin may change a team's schedule or escalation policy");

  const accountUser = (field: string, ids: string[] | undefined) => ({ field, kind: 'accountUser' as const, ids });
  const [members, admins, dropIds, handoffIds, schedules, policies] = await resolveReferences(principal.accountId, [
    accountUser('member_account_user_ids', input.member_account_user_ids),
    accountUser('admin_account_user_ids', input.admin_account_user_ids),
    accountUser('drop_notification_account_user_ids', input.drop_notification_account_user_ids),
    accountUser('handoff_notification_account_user_ids', input.handoff_notification_account_user_ids),
    { field: 'schedule_id', kind: 'schedule', ids: input.schedule_id ? [input.schedule_id] : [] },
    { field: 'escalation_policy_id', kind: 'escalationPolicy', ids: input.escalation_policy_id ? [input.escalation_policy_id] : [] },
  ]);

  const next: TeamRecord = {
    ...current,
    name: input.name ?? current.name,
    notes: input.notes === undefined ? current.notes : (input.notes ?? ''),
    meta: mergeKeys(current.meta, input.meta, 'meta'),
    drop_notifications: input.drop_notifications ?? current.drop_notifications,
    handoff_notifications: input.handoff_notifications ?? current.handoff_notifications,
    member_account_user_ids: input.member_account_user_ids ? members : current.member_account_user_ids,
    admin_account_user_ids: input.admin_account_user_ids ? admins : current.admin_account_user_ids,
    drop_notification_account_user_ids: input.drop_notification_account_user_ids ? dropIds : current.drop_notification_account_user_ids,
    handoff_notification_account_user_ids: input.handoff_notification_account_user_ids
      ? handoffIds
      : current.handoff_notification_account_user_ids,
    attachments: input.attachments === undefined ? current.attachments : (input.attachments ?? {}),
    chat_webhooks: input.chat_webhooks === undefined ? current.chat_webhooks : (input.chat_webhooks ?? []),
    slack_channel_id: input.slack_channel_id === undefined ? (current.slack_channel_id ?? null) : input.slack_channel_id,
    schedule_id: input.schedule_id === undefined ? current.schedule_id : (schedules[0] ?? null),
    escalation_policy_id: input.escalation_policy_id === undefined ? current.escalation_policy_id : (policies[0] ?? null),
    version: current.version + 1,
    updated_at: nowIso(),
  };
  checkSpecificUsers(next);
  if (!(await saveTeam(next, current))) throw new Conflict('the team was changed by another request; reload and try again');
  await syncChatSubscription(current, next);
  return next;
}
