// PUT /api/v4/schedules/:id: account admins, and the admins of the schedule's team (docs/api.md#roles).
import { mergeKeys } from '../http/changes';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { requireScheduleEditor } from '../teams/team-admins';
import type { ScheduleRecord } from './records';
import { findSchedule } from './read-schedules';
import { updateScheduleInput } from './schemas';
import { saveSchedule } from './store';
import { nowIso } from '../clock';

export async function updateSchedule(principal: Principal, rawId: string, body: unknown): Promise<ScheduleRecord> {
  const current = await findSchedule(principal, rawId);
  await requireScheduleEditor(principal, [current.id], 'edit this schedule');
  const input = parseInput(updateScheduleInput, body);
  const next: ScheduleRecord = {
    ...current,
    name: input.name ?? current.name,
    meta: mergeKeys(current.meta, input.meta, 'meta'),
    version: current.version + 1,
    updated_at: nowIso(),
  };
  if (!(await saveSchedule(next))) throw new Conflict('the schedule was changed by another request; reload and try again');
  return next;
}
