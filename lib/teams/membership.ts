// Team membership changes made from the account-user side (member_team_ids on create/update,
// and cleaning up after a deleted account user). Each change is a versioned write, retried on a
// lost race, so concurrent edits of one team never drop a member.
import { ENTITY_TYPES } from '../store/items';
import { loadEntity, saveEntity, type Entity } from '../store/entities';
import { teamIndexKeys } from './keys';
import { allTeams } from './store';

const TYPE = ENTITY_TYPES.team;

export interface TeamMembers extends Entity {
  member_account_user_ids: string[];
  admin_account_user_ids: string[];
  updated_at: string;
}

async function editTeam(accountId: string, teamId: string, edit: (team: TeamMembers) => boolean): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const team = await loadEntity<TeamMembers>(accountId, TYPE, teamId);
    if (!team) return;
    const next = { ...team, member_account_user_ids: [...(team.member_account_user_ids ?? [])], admin_account_user_ids: [...(team.admin_account_user_ids ?? [])] };
    if (!edit(next)) return;
    next.version = team.version + 1;
    next.updated_at = new Date().toISOString();
    if (await saveEntity(TYPE, next, { indexKeys: teamIndexKeys(next) })) return;
  }
  throw new Error(`team ${teamId} kept changing; membership not saved`);
}

export async function setMemberships(accountId: string, accountUserId: string, teamIds: string[]): Promise<void> {
  const wanted = new Set(teamIds);
  const teams: TeamMembers[] = await allTeams(accountId);
  await Promise.all(
    teams.map((team) => {
      const isMember = (team.member_account_user_ids ?? []).includes(accountUserId);
      if (wanted.has(team.id) === isMember) return undefined;
      return editTeam(accountId, team.id, (next) => {
        const has = next.member_account_user_ids.includes(accountUserId);
        if (wanted.has(team.id) && !has) next.member_account_user_ids.push(accountUserId);
        else if (!wanted.has(team.id) && has) next.member_account_user_ids = next.member_account_user_ids.filter((id) => id !== accountUserId);
        else return false;
        return true;
      });
    }),
  );
}

export async function addMemberships(accountId: string, accountUserId: string, teamIds: string[]): Promise<void> {
  await Promise.all(
    teamIds.map((teamId) =>
      editTeam(accountId, teamId, (next) => {
        if (next.member_account_user_ids.includes(accountUserId)) return false;
        next.member_account_user_ids.push(accountUserId);
        return true;
      }),
    ),
  );
}

/** Removes a deleted account user from every team's member and admin lists. */
export async function removeFromAllTeams(accountId: string, accountUserId: string): Promise<void> {
  const teams: TeamMembers[] = await allTeams(accountId);
  await Promise.all(
    teams
      .filter((t) => (t.member_account_user_ids ?? []).includes(accountUserId) || (t.admin_account_user_ids ?? []).includes(accountUserId))
      .map((t) =>
        editTeam(accountId, t.id, (next) => {
          next.member_account_user_ids = next.member_account_user_ids.filter((id) => id !== accountUserId);
          next.admin_account_user_ids = next.admin_account_user_ids.filter((id) => id !== accountUserId);
          return true;
        }),
      ),
  );
}
