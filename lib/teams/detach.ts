// When a schedule or an escalation policy is deleted, the teams that used it lose the pointer
// (rather than keep an id that names nothing).
import { saveTeam, getTeam, teamsOfPolicy, teamsOfSchedule } from './store';
import type { TeamRecord } from './records';

async function editTeam(accountId: string, teamId: string, edit: (team: TeamRecord) => boolean): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const team = await getTeam(accountId, teamId);
    if (!team) return;
    const next = { ...team };
    if (!edit(next)) return;
    next.version = team.version + 1;
    next.updated_at = new Date().toISOString();
    if (await saveTeam(next)) return;
  }
  throw new Error(`team ${teamId} kept changing; pointer not cleared`);
}

export async function unsetTeamSchedule(accountId: string, scheduleId: string): Promise<void> {
  const teams = await teamsOfSchedule(accountId, scheduleId);
  await Promise.all(
    teams.map((team) =>
      editTeam(accountId, team.id, (next) => {
        if (next.schedule_id !== scheduleId) return false;
        next.schedule_id = null;
        return true;
      }),
    ),
  );
}

export async function unsetTeamPolicy(accountId: string, policyId: string): Promise<void> {
  const teams = await teamsOfPolicy(accountId, policyId);
  await Promise.all(
    teams.map((team) =>
      editTeam(accountId, team.id, (next) => {
        if (next.escalation_policy_id !== policyId) return false;
        next.escalation_policy_id = null;
        return true;
      }),
    ),
  );
}
