// Data access for teams (lib/teams/ACCESS-PATTERNS.md): the only place that knows their keys.
//   team   A#<acc>#TEAM / <id>
//          gsi1: A#<acc>#TEAM#SKD#<schedule id> / <team id>   teams whose active schedule it is
//          gsi2: A#<acc>#TEAM#ESC#<policy id> / <team id>     teams whose active escalation policy it is
//          gsi3: TEAMS#<shard 0..3> / <acc>#<team id>           every team of every account (the
//                sweeper's going-on-call watch; sharded so no index partition runs hot)
import { entityStore } from '../store/entity-store';
import type { TeamRecord } from './records';

const bySchedule = (accountId: string, scheduleId: string) => `A#${accountId}#TEAM#SKD#${scheduleId}`;
const byPolicy = (accountId: string, policyId: string) => `A#${accountId}#TEAM#ESC#${policyId}`;

const TEAM_SHARDS = 4;

function teamShard(teamId: string): number {
  let sum = 0;
  for (let i = teamId.length - 4; i < teamId.length; i++) sum += teamId.charCodeAt(i);
  return sum % TEAM_SHARDS;
}

const teams = entityStore<TeamRecord>({
  kind: 'team',
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
export const saveTeam = (record: TeamRecord) => teams.save(record);
export const removeTeam = teams.remove;
export const nextTeamTinyId = teams.nextTinyId;
export const teamCollection = teams.collection;

export async function insertTeam(record: TeamRecord): Promise<void> {
  if (!(await teams.insert(record))) throw new Error(`team ${record.id} already exists`);
}

/** Every team of the account (a Query of its team partition). */
export async function listAllTeams(accountId: string): Promise<TeamRecord[]> {
  return teams.list(accountId, { forward: true });
}

/** Teams whose active schedule this is. */
export async function listTeamsOfSchedule(accountId: string, scheduleId: string): Promise<TeamRecord[]> {
  return teams.query(bySchedule(accountId, scheduleId), { index: 'gsi1' });
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
