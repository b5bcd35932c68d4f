// POST /api/v4/schedules (account admins), and the schedule a new team gets.
import { requireAdmin } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import type { ScheduleRecord } from './records';
import { createScheduleInput } from './schemas';
import { insertSchedule, nextScheduleTinyId } from './store';
import { newEntity } from '../store/entity-store';

/** Writes a new schedule (no permission check: team creation makes one for its team). */
export async function insertNewSchedule(accountId: string, name: string, meta: Record<string, unknown> = {}): Promise<ScheduleRecord> {
  const record: ScheduleRecord = {
    ...newEntity(accountId),
    tiny_id: await nextScheduleTinyId(accountId),
    name,
    meta: withoutNulls(meta),
  };
  await insertSchedule(record);
  return record;
}

export async function createSchedule(principal: Principal, body: unknown): Promise<ScheduleRecord> {
  requireAdmin(principal, 'create schedules');
  const input = parseInput(createScheduleInput, body);
  return insertNewSchedule(principal.accountId, input.name, input.meta);
}
