// POST /api/v4/schedules (account admins), and the schedule a new team gets.
import { requireAdmin } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import type { ScheduleRecord } from './records';
import { createScheduleInput } from './schemas';
import { insertSchedule, nextScheduleTinyId } from './store';

/** Writes a new schedule (no permission check: team creation makes one for its team). */
export async function insertNewSchedule(accountId: string, name: string, meta: Record<string, unknown> = {}): Promise<ScheduleRecord> {
  const now = new Date().toISOString();
  const record: ScheduleRecord = {
    id: newId(),
    account_id: accountId,
    tiny_id: await nextScheduleTinyId(accountId),
    version: 1,
    name,
    meta: withoutNulls(meta),
    created_at: now,
    updated_at: now,
  };
  await insertSchedule(record);
  return record;
}

export async function createSchedule(principal: Principal, body: unknown): Promise<ScheduleRecord> {
  requireAdmin(principal, 'create schedules');
  const input = parseInput(createScheduleInput, body);
  return insertNewSchedule(principal.accountId, input.name, input.meta);
}
