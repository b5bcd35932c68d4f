// Data access for teams (lib/teams/ACCESS-PATTERNS.md): the only place that knows their keys.
//   team            A#<acc>#TEAM / <id>
//                   gsi1: A#<acc>#TEAM#SKD#<schedule id> / <team id>   teams whose active schedule it is
//                   gsi2: A#<acc>#TEAM#ESC#<policy id> / <team id>     teams whose active escalation policy it is
//   schedule link   A#<acc>#SKD#<schedule id>#TEAM / <team id>  {admin_account_user_ids, team_version}
//                   the team-admin check's strongly consistent read (an index is only eventually so)
//                   gsi3: TEAMS#<shard 0..3> / <acc>#<team id> on the team: every team of every account
//                   (the sweeper's going-on-call watch; sharded so no index partition runs hot)
// Link writes revoke before and grant after the team write: a crash between them can leave a team
// admin without a right for a moment (until the team's next write), never with one it lost.
import { deleteItem, putIfNotNewer, queryItems } from '../store/items';
import { entityStore } from '../store/entity-store';
import type { TeamRecord } from './records';

const bySchedule = (accountId: string, scheduleId: string) => `A#${accountId}#TEAM#SKD#${scheduleId}`;
const byPolicy = (accountId: string, policyId: string) => `A#${accountId}#TEAM#ESC#${policyId}`;
const scheduleLinks = (accountId: string, scheduleId: string) => `A#${accountId}#SKD#${scheduleId}#TEAM`;

const TEAM_SHARDS = 4;

function teamShard(teamId: string): number {
  let sum = 0;
  for (let i = teamId.length - 4; i < teamId.length; i++) sum += teamId.charCodeAt(i);
  return sum % TEAM_SHARDS;
}

const teams = entityStore<TeamRecord>({
  kind: 'team',
  audit: { objectType: 'team' },
  indexKeys: (team) => ({
    gsi1pk: team.schedule_id ? bySchedule(team.account_id, team.schedule_id) : undefined,
    gsi1sk: team.schedule_id ? team.id : undefined,
    gsi2pk: team.escalation_policy_id ? byPolicy(team.account_id, team.escalation_policy_id) : undefined,
    gsi2sk: team.escalation_policy_id ? team.id : undefined,
    gsi3pk: `TEAMS#${teamShard(team.id)}`,
    gsi3sk: `${team.account_id}#${team.id}`,
  }),
});

export const getTeam = teams.get;
export const getTeams = teams.getMany;
export const nextTeamTinyId = teams.nextTinyId;
export const teamCollection = teams.collection;

// ── schedule links ───────────────────────────────────────────────────────────────────────────────

type LinkState = Pick<TeamRecord, 'account_id' | 'id' | 'schedule_id' | 'admin_account_user_ids' | 'version'>;

async function putLink(team: LinkState, admins: string[]): Promise<void> {
  if (!team.schedule_id) return;
  await putIfNotNewer(
    { pk: scheduleLinks(team.account_id, team.schedule_id), sk: team.id, admin_account_user_ids: admins },
    'team_version',
    team.version,
  );
}

async function deleteLink(team: LinkState): Promise<void> {
  if (team.schedule_id) await deleteItem({ pk: scheduleLinks(team.account_id, team.schedule_id), sk: team.id });
}

/** Before a team write: takes away, on the link, every right the write takes away. */
async function revoke(before: TeamRecord, next: TeamRecord): Promise<void> {
  if (!before.schedule_id) return;
  if (before.schedule_id !== next.schedule_id) return deleteLink(before);
  const kept = (before.admin_account_user_ids ?? []).filter((id) => next.admin_account_user_ids.includes(id));
  if (kept.length < (before.admin_account_user_ids ?? []).length) await putLink(before, kept);
}

// ── writes ───────────────────────────────────────────────────────────────────────────────────────

export async function insertTeam(record: TeamRecord): Promise<void> {
  if (!(await teams.insert(record))) throw new Error(`team ${record.id} already exists`);
  await putLink(record, record.admin_account_user_ids);
}

/** Saves `next` (read as `before`, version raised by one); false when another write came first. The
 * schedule link follows: narrowed before the write, widened after it, and after a lost race rewritten
 * from the team as stored. */
export async function saveTeam(next: TeamRecord, before: TeamRecord): Promise<boolean> {
  await revoke(before, next);
  if (!(await teams.save(next))) {
    const stored = await getTeam(next.account_id, next.id);
    if (stored) await putLink(stored, stored.admin_account_user_ids);
    return false;
  }
  await putLink(next, next.admin_account_user_ids);
  return true;
}

/** Removes a team (as read) and its link, the link first. */
export async function removeTeam(team: TeamRecord): Promise<TeamRecord | null> {
  await deleteLink(team);
  return teams.remove(team.account_id, team.id);
}

// ── reads ────────────────────────────────────────────────────────────────────────────────────────

/** Every team of the account (a Query of its team partition). */
export async function listAllTeams(accountId: string): Promise<TeamRecord[]> {
  return teams.list(accountId, { forward: true });
}

/** Teams whose active schedule this is (gsi1: eventually consistent). */
export async function listTeamsOfSchedule(accountId: string, scheduleId: string): Promise<TeamRecord[]> {
  return teams.query(bySchedule(accountId, scheduleId), { index: 'gsi1' });
}

/** The admins of each team whose schedule this is, from the schedule's links: one strongly consistent
 * Query (the team-admin check). */
export async function listScheduleTeamAdmins(accountId: string, scheduleId: string): Promise<{ teamId: string; adminIds: string[] }[]> {
  const links = await queryItems(scheduleLinks(accountId, scheduleId));
  return links.map((link) => ({ teamId: String(link.sk), adminIds: (link.admin_account_user_ids as string[] | undefined) ?? [] }));
}

/** Teams whose active escalation policy this is. */
export async function listTeamsOfPolicy(accountId: string, policyId: string): Promise<TeamRecord[]> {
  return teams.query(byPolicy(accountId, policyId), { index: 'gsi2' });
}

/** Every team of every account, shard by shard (the sweeper's going-on-call watch; never a request path). */
export async function* allTeamsEverywhere(): AsyncGenerator<TeamRecord> {
  for (let shard = 0; shard < TEAM_SHARDS; shard++) {
    for (const team of await teams.query(`TEAMS#${shard}`, { index: 'gsi3' })) yield team;
  }
}
