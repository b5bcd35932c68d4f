// Teams (api-v4.md "Team", contract §3, §7). Creating a team also creates its schedule and its
// escalation policy. Account admins create and delete teams; a team's admins may also edit it,
// except for re-pointing its schedule or policy (that would hand them control of another one).
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { Conflict, Forbidden, Invalid, NotFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { newId, parseId } from '../ids';
import { insertNewEscalationPolicy } from '../escalation-policies/manage-escalation-policies';
import { runList } from '../list/engine';
import { parseListQuery } from '../list/query';
import { insertNewSchedule } from '../schedules/manage-schedules';
import { nextTinyId } from '../store/grouped-writes';
import { ENTITY_TYPES } from '../store/items';
import { partitionSource } from '../store/partition-source';
import { resolveReferences } from '../store/references';
import { mergeMeta, normalizeIdFilters } from './inputs';
import type { Attachment, NotificationTarget, TeamRecord } from './records';
import { TEAM_REFERENCE_FILTERS, teamListSpec, teamToV4 } from './represent';
import { createTeamInput, updateTeamInput } from './schemas';
import { deleteTeamRecord, getTeam, insertTeam, saveTeam } from './store';
import { administersTeam } from './team-admins';

/** Who a drop or hand-off notification goes to when no one names the target. */
const DEFAULT_DROP_NOTIFICATIONS: NotificationTarget = 'team_admins';
const DEFAULT_HANDOFF_NOTIFICATIONS: NotificationTarget = 'none';

function checkSpecificUsers(team: Pick<TeamRecord, 'drop_notifications' | 'handoff_notifications' | 'drop_notification_account_user_ids' | 'handoff_notification_account_user_ids'>): void {
  const messages: string[] = [];
  if (team.drop_notifications === 'specific_users' && team.drop_notification_account_user_ids.length === 0) {
    messages.push('drop_notification_account_user_ids must have at least 1 entry when drop_notifications is specific_users');
  }
  if (team.handoff_notifications === 'specific_users' && team.handoff_notification_account_user_ids.length === 0) {
    messages.push('handoff_notification_account_user_ids must have at least 1 entry when handoff_notifications is specific_users');
  }
  if (messages.length > 0) throw new Invalid(messages);
}

export async function findTeam(principal: Principal, rawId: string): Promise<TeamRecord> {
  const id = parseId('team', rawId);
  const record = id ? await getTeam(principal.accountId, id) : null;
  if (!record) throw new NotFound('Team not found');
  return record;
}

export async function listTeams(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, TEAM_REFERENCE_FILTERS), teamListSpec, 'v4');
  return runList(query, partitionSource<TeamRecord>(principal.accountId, ENTITY_TYPES.team), teamToV4, { search: teamListSpec.search });
}

export async function createTeam(principal: Principal, body: unknown): Promise<TeamRecord> {
  requireAdmin(principal, 'create teams');
  const input = parseInput(createTeamInput, body);
  const accountUser = (field: string, ids: string[] | undefined) => ({ field, kind: 'accountUser' as const, type: ENTITY_TYPES.accountUser, ids });
  const [members, admins, dropIds, handoffIds] = await resolveReferences(principal.accountId, [
    accountUser('member_account_user_ids', input.member_account_user_ids),
    accountUser('admin_account_user_ids', input.admin_account_user_ids),
    accountUser('drop_notification_account_user_ids', input.drop_notification_account_user_ids),
    accountUser('handoff_notification_account_user_ids', input.handoff_notification_account_user_ids),
  ]);
  const settings = {
    drop_notifications: input.drop_notifications ?? DEFAULT_DROP_NOTIFICATIONS,
    handoff_notifications: input.handoff_notifications ?? DEFAULT_HANDOFF_NOTIFICATIONS,
    drop_notification_account_user_ids: dropIds,
    handoff_notification_account_user_ids: handoffIds,
  };
  checkSpecificUsers(settings);

  const schedule = await insertNewSchedule(principal.accountId, `${input.name} Schedule`);
  const policy = await insertNewEscalationPolicy(principal.accountId, { name: `${input.name} Escalation Policy`, repeat: 0 });
  const now = new Date().toISOString();
  const record: TeamRecord = {
    id: newId(),
    account_id: principal.accountId,
    tiny_id: await nextTinyId(principal.accountId, ENTITY_TYPES.team),
    version: 1,
    name: input.name,
    schedule_id: schedule.id,
    escalation_policy_id: policy.id,
    member_account_user_ids: members,
    admin_account_user_ids: admins,
    ...settings,
    notes: input.notes ?? '',
    attachments: (input.attachments ?? {}) as TeamRecord['attachments'],
    meta: mergeMeta({}, input.meta),
    created_at: now,
    updated_at: now,
  };
  await insertTeam(record);
  return record;
}

export async function updateTeam(principal: Principal, rawId: string, body: unknown): Promise<TeamRecord> {
  const current = await findTeam(principal, rawId);
  const isAdmin = principal.roles.admin;
  if (!isAdmin && !administersTeam(principal, current)) throw new Forbidden('Only an account admin or an admin of this team may edit it');
  const input = parseInput(updateTeamInput, body);

  const scheduleId = input.schedule_id === undefined ? undefined : input.schedule_id === null ? null : parseId('schedule', input.schedule_id);
  const policyId =
    input.escalation_policy_id === undefined ? undefined : input.escalation_policy_id === null ? null : parseId('escalationPolicy', input.escalation_policy_id);
  const repoints = (scheduleId !== undefined && scheduleId !== current.schedule_id) || (policyId !== undefined && policyId !== current.escalation_policy_id);
  if (repoints && !isAdmin) throw new Forbidden("Only an account admin may change a team's schedule or escalation policy");

  const accountUser = (field: string, ids: string[] | undefined) => ({ field, kind: 'accountUser' as const, type: ENTITY_TYPES.accountUser, ids });
  const [members, admins, dropIds, handoffIds, schedules, policies] = await resolveReferences(principal.accountId, [
    accountUser('member_account_user_ids', input.member_account_user_ids),
    accountUser('admin_account_user_ids', input.admin_account_user_ids),
    accountUser('drop_notification_account_user_ids', input.drop_notification_account_user_ids),
    accountUser('handoff_notification_account_user_ids', input.handoff_notification_account_user_ids),
    { field: 'schedule_id', kind: 'schedule', type: ENTITY_TYPES.schedule, ids: input.schedule_id ? [input.schedule_id] : [] },
    { field: 'escalation_policy_id', kind: 'escalationPolicy', type: ENTITY_TYPES.escalationPolicy, ids: input.escalation_policy_id ? [input.escalation_policy_id] : [] },
  ]);

  const next: TeamRecord = {
    ...current,
    name: input.name ?? current.name,
    notes: input.notes === undefined ? current.notes : (input.notes ?? ''),
    meta: mergeMeta(current.meta, input.meta),
    drop_notifications: input.drop_notifications ?? current.drop_notifications,
    handoff_notifications: input.handoff_notifications ?? current.handoff_notifications,
    member_account_user_ids: input.member_account_user_ids ? members : current.member_account_user_ids,
    admin_account_user_ids: input.admin_account_user_ids ? admins : current.admin_account_user_ids,
    drop_notification_account_user_ids: input.drop_notification_account_user_ids ? dropIds : current.drop_notification_account_user_ids,
    handoff_notification_account_user_ids: input.handoff_notification_account_user_ids ? handoffIds : current.handoff_notification_account_user_ids,
    attachments: input.attachments === undefined ? current.attachments : ((input.attachments ?? {}) as Record<string, Attachment> | Attachment[]),
    schedule_id: input.schedule_id === undefined ? current.schedule_id : (schedules[0] ?? null),
    escalation_policy_id: input.escalation_policy_id === undefined ? current.escalation_policy_id : (policies[0] ?? null),
    version: current.version + 1,
    updated_at: new Date().toISOString(),
  };
  checkSpecificUsers(next);
  if (!(await saveTeam(next))) throw new Conflict('the team was changed by another request; reload and try again');
  return next;
}

/** Deletes the team; its schedule and escalation policy are objects of their own and stay. */
export async function deleteTeam(principal: Principal, rawId: string): Promise<void> {
  const current = await findTeam(principal, rawId);
  requireAdmin(principal, 'delete teams');
  if (!(await deleteTeamRecord(principal.accountId, current.id))) throw new NotFound('Team not found');
}
