// Team membership changes made from the account-user side (member_team_ids on create/update,
// and cleaning up after a deleted account user). Each change is a versioned write, retried on a
// lost race (lib/teams/detach.ts editTeam), so concurrent edits of one team never drop a member.
import { editTeam } from './detach';
import { listAllTeams } from './store';

export async function setMemberships(accountId: string, accountUserId: string, teamIds: string[]): Promise<void> {
  const wanted = new Set(teamIds);
  const teams = await listAllTeams(accountId);
  await Promise.all(
    teams
      .filter((team) => wanted.has(team.id) !== (team.member_account_user_ids ?? []).includes(accountUserId))
      .map((team) =>
        editTeam(
          accountId,
          team.id,
          (next) => {
            const has = next.member_account_user_ids.includes(accountUserId);
            if (wanted.has(team.id) && !has) next.member_account_user_ids.push(accountUserId);
            else if (!wanted.has(team.id) && has)
              next.member_account_user_ids = next.member_account_user_ids.filter((id) => id !== accountUserId);
            else return false;
            return true;
          },
          'membership not saved',
        ),
      ),
  );
}

export async function addMemberships(accountId: string, accountUserId: string, teamIds: string[]): Promise<void> {
  await Promise.all(
    teamIds.map((teamId) =>
      editTeam(
        accountId,
        teamId,
        (next) => {
          if (next.member_account_user_ids.includes(accountUserId)) return false;
          next.member_account_user_ids.push(accountUserId);
          return true;
        },
        'membership not saved',
      ),
    ),
  );
}

/** Removes a deleted account user from every team's member and admin lists. */
export async function removeFromAllTeams(accountId: string, accountUserId: string): Promise<void> {
  const teams = await listAllTeams(accountId);
  await Promise.all(
    teams
      .filter((t) => (t.member_account_user_ids ?? []).includes(accountUserId) || (t.admin_account_user_ids ?? []).includes(accountUserId))
      .map((t) =>
        editTeam(
          accountId,
          t.id,
          (next) => {
            next.member_account_user_ids = next.member_account_user_ids.filter((id) => id !== accountUserId);
            next.admin_account_user_ids = next.admin_account_user_ids.filter((id) => id !== accountUserId);
            return true;
          },
          'membership not saved',
        ),
      ),
  );
}
