// GET /api/v4/teams/:id/current_oncall: a shortcut for the team's schedule's current on-call.
import { now as clockNow } from '../clock';
import type { Principal } from '../http/principal';
import { oncallEntries, scheduleOncallAt, type OncallEntry } from '../schedules/read-oncall';
import type { OncallSpan } from '../oncall/types';
import { findTeam } from './read-teams';
import { getTeam } from './store';

/** On-call spans of a team's schedule at `at`; none when the team has no schedule (routing uses this). */
export async function teamOncallAt(accountId: string, teamId: string, at: number): Promise<OncallSpan[]> {
  const team = await getTeam(accountId, teamId);
  if (!team?.schedule_id) return [];
  return scheduleOncallAt(accountId, team.schedule_id, at);
}

export async function teamCurrentOncall(principal: Principal, rawId: string, now = clockNow()): Promise<OncallEntry[]> {
  const team = await findTeam(principal, rawId);
  if (!team.schedule_id) return [];
  return oncallEntries(principal.accountId, await scheduleOncallAt(principal.accountId, team.schedule_id, now));
}
