// Data access for schedules (lib/schedules/ACCESS-PATTERNS.md).
//   schedule   A#<acc>#SKD / <id>
// A schedule's events are found through their links (lib/events/store.ts), its teams through the
// teams' gsi1 (lib/teams/keys.ts).
import { insertEntity, loadEntity, removeEntity, saveEntity } from '../store/entities';
import { ENTITY_TYPES } from '../store/items';
import type { ScheduleRecord } from './records';

const TYPE = ENTITY_TYPES.schedule;

export async function getSchedule(accountId: string, id: string): Promise<ScheduleRecord | null> {
  return loadEntity<ScheduleRecord>(accountId, TYPE, id);
}

export async function insertSchedule(record: ScheduleRecord): Promise<void> {
  if (!(await insertEntity(TYPE, record))) throw new Error(`schedule ${record.id} already exists`);
}

export async function saveSchedule(record: ScheduleRecord): Promise<boolean> {
  return saveEntity(TYPE, record);
}

export async function deleteScheduleRecord(accountId: string, id: string): Promise<ScheduleRecord | null> {
  return removeEntity<ScheduleRecord>(accountId, TYPE, id);
}
