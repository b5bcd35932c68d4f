// When a schedule or an escalation policy is deleted, the teams that used it lose the pointer
// (rather than keep an id that names nothing).
import { done, updateWithRetry } from '../store/retry';
import type { TeamRecord } from './records';
import { getTeam, listTeamsOfPolicy, listTeamsOfSchedule, saveTeam } from './store';
import { nowIso } from '../clock';

/** Applies `edit` to a team with versioned retries; `edit` returns false when there is nothing to do. */
export async function editTeam(accountId: string, teamId: string, edit: (team: TeamRecord) => boolean, what: string): Promise<void> {
  await updateWithRetry<TeamRecord, void>({
    load: () => getTeam(accountId, teamId),
    edit: (team) => {
      if (!team) return done();
      const next: TeamRecord = {
        ...team,
        member_account_user_ids: [...(team.member_account_user_ids ?? [])],
        admin_account_user_ids: [...(team.admin_account_user_ids ?? [])],
      };
      if (!edit(next)) return done();
      return { ...next, version: team.version + 1, updated_at: nowIso() };
    },
    save: (next, team) => saveTeam(next, team),
    saved: () => undefined,
    exhausted: () => {
      throw new Error(`team ${teamId} kept changing; ${what}`);
    },
  });
}

/** Clears a team pointer (schedule_id or escalation_policy_id) from every team that holds `id`. */
async function unsetTeamPointer(accountId: string, field: 'schedule_id' | 'escalation_policy_id', id: string): Promise<void> {
  const teams = field === 'schedule_id' ? await listTeamsOfSchedule(accountId, id) : await listTeamsOfPolicy(accountId, id);
  await Promise.all(
    teams.map((team) =>
      editTeam(
        accountId,
        team.id,
        (next) => {
          if (next[field] !== id) return false;
          next[field] = null;
          return true;
        },
        'pointer not cleared',
      ),
    ),
  );
}

export const unsetTeamSchedule = (accountId: string, scheduleId: string) => unsetTeamPointer(accountId, 'schedule_id', scheduleId);
export const unsetTeamPolicy = (accountId: string, policyId: string) => unsetTeamPointer(accountId, 'escalation_policy_id', policyId);
