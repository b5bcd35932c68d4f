// DELETE /api/v4/schedules/:id (account admins): the schedule, its events (those shared with other
// schedules only leave it) and every team's pointer to it.
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { unsetTeamSchedule } from '../teams/detach';
import { emptySchedule } from './flush-schedule';
import { findSchedule } from './read-schedules';
import { removeSchedule } from './store';

export async function deleteSchedule(principal: Principal, rawId: string): Promise<void> {
  const current = await findSchedule(principal, rawId);
  requireAdmin(principal, 'delete schedules');
  if (!(await removeSchedule(principal.accountId, current.id))) throw new NotFound('Schedule not found');
  await emptySchedule(principal.accountId, current.id);
  await unsetTeamSchedule(principal.accountId, current.id);
}
