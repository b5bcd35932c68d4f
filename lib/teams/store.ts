// Data access for teams (lib/teams/ACCESS-PATTERNS.md): the only place that knows their keys.
//   team   A#<acc>#TEAM / <id>
//          gsi1: A#<acc>#TEAM#SKD#<schedule id> / <team id>   teams whose active schedule it is
//          gsi2: A#<acc>#TEAM#ESC#<policy id> / <team id>     teams whose active escalation policy it is
import { entityStore } from '../store/entity-store';
import type { TeamRecord } from './records';

const bySchedule = (accountId: string, scheduleId: string) => `A#${accountId}#TEAM#SKD#${scheduleId}`;
const byPolicy = (accountId: string, policyId: string) => `A#${accountId}#TEAM#ESC#${policyId}`;

const teams = entityStore<TeamRecord>({
  kind: 'team',
  indexKeys: (team) => ({
    gsi1pk: team.schedule_id ? bySchedule(team.account_id, team.schedule_id) : undefined,
    gsi1sk: team.schedule_id ? team.id : undefined,
    gsi2pk: team.escalation_policy_id ? byPolicy(team.account_id, team.escalation_policy_id) : undefined,
    gsi2sk: team.escalation_policy_id ? team.id : undefined,
  }),
});

export const getTeam = teams.get;
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
