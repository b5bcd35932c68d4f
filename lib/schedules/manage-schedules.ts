// Schedules (api-v4.md "Schedule"): standard operations. Account admins create and delete them; a
// team's admins may also rename their team's schedule and flush it (contract §3).
import * as z from 'zod';
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { Conflict, NotFound } from '../http/errors';
import { requiredText } from '../http/fields';
import { parseInput } from '../http/validate';
import { newId, parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery } from '../list/query';
import { nextTinyId } from '../store/grouped-writes';
import { ENTITY_TYPES } from '../store/items';
import { partitionSource } from '../store/partition-source';
import { metaInput, mergeMeta, normalizeIdFilters } from '../teams/inputs';
import { requireScheduleEditor } from '../teams/team-admins';
import { emptySchedule } from './flush-schedule';
import type { ScheduleRecord } from './records';
import { scheduleListSpec, scheduleToV4 } from './represent';
import { deleteScheduleRecord, getSchedule, insertSchedule, saveSchedule } from './store';
import { unsetTeamSchedule } from '../teams/detach';

const createInput = z.object({ name: requiredText, meta: metaInput.optional() });
const updateInput = z.object({ name: requiredText.optional(), meta: metaInput.optional() });

/** Writes a new schedule (no permission check: team creation makes one for its team). */
export async function insertNewSchedule(accountId: string, name: string, meta: Record<string, unknown> = {}): Promise<ScheduleRecord> {
  const now = new Date().toISOString();
  const record: ScheduleRecord = {
    id: newId(),
    account_id: accountId,
    tiny_id: await nextTinyId(accountId, ENTITY_TYPES.schedule),
    version: 1,
    name,
    meta: mergeMeta({}, meta),
    created_at: now,
    updated_at: now,
  };
  await insertSchedule(record);
  return record;
}

export async function findSchedule(principal: Principal, rawId: string): Promise<ScheduleRecord> {
  const id = parseId('schedule', rawId);
  const record = id ? await getSchedule(principal.accountId, id) : null;
  if (!record) throw new NotFound('Schedule not found');
  return record;
}

export async function createSchedule(principal: Principal, body: unknown): Promise<ScheduleRecord> {
  requireAdmin(principal, 'create schedules');
  const input = parseInput(createInput, body);
  return insertNewSchedule(principal.accountId, input.name, input.meta);
}

export async function listSchedules(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, { id: 'schedule' }), scheduleListSpec, 'v4');
  return runList(query, partitionSource<ScheduleRecord>(principal.accountId, ENTITY_TYPES.schedule), scheduleToV4, {
    search: scheduleListSpec.search,
  });
}

export async function updateSchedule(principal: Principal, rawId: string, body: unknown): Promise<ScheduleRecord> {
  const current = await findSchedule(principal, rawId);
  await requireScheduleEditor(principal, [current.id], 'edit this schedule');
  const input = parseInput(updateInput, body);
  const next: ScheduleRecord = {
    ...current,
    name: input.name ?? current.name,
    meta: mergeMeta(current.meta, input.meta),
    version: current.version + 1,
    updated_at: new Date().toISOString(),
  };
  if (!(await saveSchedule(next))) throw new Conflict('the schedule was changed by another request; reload and try again');
  return next;
}

/** Deletes the schedule, its events (those shared with other schedules only leave it) and every
 * team's pointer to it. */
export async function deleteSchedule(principal: Principal, rawId: string): Promise<void> {
  const current = await findSchedule(principal, rawId);
  requireAdmin(principal, 'delete schedules');
  if (!(await deleteScheduleRecord(principal.accountId, current.id))) throw new NotFound('Schedule not found');
  await emptySchedule(principal.accountId, current.id);
  await unsetTeamSchedule(principal.accountId, current.id);
}

export async function flushSchedule(principal: Principal, rawId: string): Promise<void> {
  const current = await findSchedule(principal, rawId);
  await requireScheduleEditor(principal, [current.id], 'flush this schedule');
  await emptySchedule(principal.accountId, current.id);
}
