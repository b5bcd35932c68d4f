// Reading schedules: one by id (ULID or skd_ prefix id) and the account's list.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { normalizeIdFilters } from '../list/id-filters';
import { parseListQuery } from '../list/query';
import { collectionSource } from '../list/sources';
import type { ScheduleRecord } from './records';
import { scheduleListSpec, scheduleToV4 } from './represent';
import { getSchedule, scheduleCollection } from './store';

export async function findSchedule(principal: Principal, rawId: string): Promise<ScheduleRecord> {
  const id = parseId('schedule', rawId);
  const record = id ? await getSchedule(principal.accountId, id) : null;
  if (!record) throw new NotFound('Schedule not found');
  return record;
}

export async function listSchedules(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, { id: 'schedule' }), scheduleListSpec, 'v4');
  return runList(query, collectionSource(scheduleCollection(principal.accountId)), scheduleToV4, { search: scheduleListSpec.search });
}
