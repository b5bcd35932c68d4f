// docs/api.md#roles: without the account's `admin` role, a team's admins (admin_account_user_ids) may edit
// that team, its schedule and the schedule's events — and nothing else.
import type { Principal } from '../http/principal';
import { Forbidden } from '../http/errors';
import type { TeamRecord } from './records';
import { listScheduleTeamAdmins } from './store';

export function administersTeam(principal: Principal, team: Pick<TeamRecord, 'admin_account_user_ids'>): boolean {
  return (team.admin_account_user_ids ?? []).includes(principal.accountUserId);
}

/** True when the caller is an admin of a team whose schedule this is: the schedule's team links, read
 * strongly consistently in one round trip (a right just taken away is gone at once). */
export async function administersSchedule(principal: Principal, scheduleId: string): Promise<boolean> {
  const teams = await listScheduleTeamAdmins(principal.accountId, scheduleId);
  return teams.some((team) => team.adminIds.includes(principal.accountUserId));
}

/**
 * An event is edited by a team admin only when every schedule it is (or will be) in is a schedule of
 * a team they administer: an event shared with another team's schedule changes that team's on-call
 * too. An event in no schedule is the account admins' alone.
 */
export async function requireScheduleEditor(principal: Principal, scheduleIds: readonly string[], action: string): Promise<void> {
  if (principal.roles.admin) return;
  const ids = [...new Set(scheduleIds)];
  const allowed = ids.length > 0 && (await Promise.all(ids.map((id) => administersSchedule(principal, id)))).every(Boolean);
  if (!allowed) throw new Forbidden(`Only an account admin or an admin of the schedule's team may ${action}`);
}
