// Data access for maintenance windows.
//   window          A#<acc>#MTW / <id>
//   by end time     gsi1: A#<acc>#MTW#END / <end ISO>#<id>   (windows not yet over: one Query from now)
import { insertEntity, loadEntity, removeEntity, saveEntity } from '../store/entities';
import { ENTITY_TYPES, fromItem, queryItems } from '../store/items';
import type { MaintenanceWindowRecord } from './records';

const TYPE = ENTITY_TYPES.maintenanceWindow;

const endPartition = (accountId: string) => `A#${accountId}#MTW#END`;

const indexKeysOf = (record: MaintenanceWindowRecord) => ({
  gsi1pk: endPartition(record.account_id),
  gsi1sk: `${record.end_datetime}#${record.id}`,
});

export async function getMaintenanceWindow(accountId: string, id: string): Promise<MaintenanceWindowRecord | null> {
  return loadEntity<MaintenanceWindowRecord>(accountId, TYPE, id);
}

export async function createMaintenanceWindowRecord(record: MaintenanceWindowRecord): Promise<void> {
  if (!(await insertEntity(TYPE, record, { indexKeys: indexKeysOf(record) }))) {
    throw new Error(`maintenance window ${record.id} already exists`);
  }
}

export async function saveMaintenanceWindow(record: MaintenanceWindowRecord): Promise<boolean> {
  return saveEntity(TYPE, record, { indexKeys: indexKeysOf(record) });
}

export async function deleteMaintenanceWindowRecord(accountId: string, id: string): Promise<MaintenanceWindowRecord | null> {
  return removeEntity<MaintenanceWindowRecord>(accountId, TYPE, id);
}

/** Windows of the account that end after `nowIso` (current and future ones), soonest end first. */
export async function windowsEndingAfter(accountId: string, nowIso: string): Promise<MaintenanceWindowRecord[]> {
  const items = await queryItems(endPartition(accountId), { index: 'gsi1', skBetween: [nowIso, '~'] });
  return items.map((item) => fromItem<MaintenanceWindowRecord>(item));
}
