// Data access for schedules (lib/schedules/ACCESS-PATTERNS.md).
//   schedule   A#<acc>#SKD / <id>
// A schedule's events are found through their links (lib/events/store.ts), its teams through the
// teams' gsi1 (lib/teams/store.ts).
import { entityStore } from '../store/entity-store';
import type { ScheduleRecord } from './records';

const schedules = entityStore<ScheduleRecord>({ kind: 'schedule', audit: { objectType: 'schedule' } });

export const getSchedule = schedules.get;
export const saveSchedule = (record: ScheduleRecord) => schedules.save(record);
export const removeSchedule = schedules.remove;
export const nextScheduleTinyId = schedules.nextTinyId;
export const scheduleCollection = schedules.collection;

export async function insertSchedule(record: ScheduleRecord): Promise<void> {
  if (!(await schedules.insert(record))) throw new Error(`schedule ${record.id} already exists`);
}

/** Every schedule of the account (a person's calendar feed reads them all). */
export const listAllSchedules = (accountId: string) => schedules.list(accountId);
