// Data access for teams (lib/teams/ACCESS-PATTERNS.md).
//   team   A#<acc>#TEAM / <id>   gsi1/gsi2 as lib/teams/keys.ts derives them
import { insertEntity, loadEntity, removeEntity, saveEntity } from '../store/entities';
import { ENTITY_TYPES, fromItem, partitionOf, queryItems } from '../store/items';
import { teamIndexKeys, teamsOfPolicyPartition, teamsOfSchedulePartition } from './keys';
import type { TeamRecord } from './records';

const TYPE = ENTITY_TYPES.team;

export async function getTeam(accountId: string, id: string): Promise<TeamRecord | null> {
  return loadEntity<TeamRecord>(accountId, TYPE, id);
}

export async function insertTeam(record: TeamRecord): Promise<void> {
  if (!(await insertEntity(TYPE, record, { indexKeys: teamIndexKeys(record) }))) {
    throw new Error(`team ${record.id} already exists`);
  }
}

export async function saveTeam(record: TeamRecord): Promise<boolean> {
  return saveEntity(TYPE, record, { indexKeys: teamIndexKeys(record) });
}

export async function deleteTeamRecord(accountId: string, id: string): Promise<TeamRecord | null> {
  return removeEntity<TeamRecord>(accountId, TYPE, id);
}

/** Every team of the account (a Query of its team partition). */
export async function allTeams(accountId: string): Promise<TeamRecord[]> {
  return (await queryItems(partitionOf(accountId, TYPE))).map((item) => fromItem<TeamRecord>(item));
}

/** Teams whose active schedule this is. */
export async function teamsOfSchedule(accountId: string, scheduleId: string): Promise<TeamRecord[]> {
  const items = await queryItems(teamsOfSchedulePartition(accountId, scheduleId), { index: 'gsi1' });
  return items.map((item) => fromItem<TeamRecord>(item));
}

/** Teams whose active escalation policy this is. */
export async function teamsOfPolicy(accountId: string, policyId: string): Promise<TeamRecord[]> {
  const items = await queryItems(teamsOfPolicyPartition(accountId, policyId), { index: 'gsi2' });
  return items.map((item) => fromItem<TeamRecord>(item));
}
