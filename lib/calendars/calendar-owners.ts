// Whose calendar a caller may manage: a schedule anyone in the account reads (its addresses revoked
// by those who may edit it), a person's own shifts by that person or an admin (contract §14, §3).
import { findAccountUser } from '../account-users/read-account-users';
import { Forbidden } from '../http/errors';
import type { Principal } from '../http/principal';
import { findSchedule } from '../schedules/read-schedules';
import { requireScheduleEditor } from '../teams/team-admins';
import type { CalendarScope } from './records';

export interface CalendarOwner {
  scope: CalendarScope;
  id: string;
}

export async function scheduleToRead(principal: Principal, rawId: string): Promise<CalendarOwner> {
  const schedule = await findSchedule(principal, rawId);
  return { scope: 'schedule', id: schedule.id };
}

export async function scheduleToEdit(principal: Principal, rawId: string): Promise<CalendarOwner> {
  const owner = await scheduleToRead(principal, rawId);
  await requireScheduleEditor(principal, [owner.id], "revoke this schedule's calendar addresses");
  return owner;
}

export async function personToManage(principal: Principal, rawId: string): Promise<CalendarOwner> {
  const person = await findAccountUser(principal, rawId);
  if (person.id !== principal.accountUserId && !principal.roles.admin) {
    throw new Forbidden("Only the account user themselves or an admin may manage a person's calendar addresses");
  }
  return { scope: 'account_user', id: person.id };
}
