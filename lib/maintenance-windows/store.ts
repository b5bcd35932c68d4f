// Data access for maintenance windows (lib/integrations/ACCESS-PATTERNS.md).
//   window          A#<acc>#MTW / <id>
//   by end time     gsi1: A#<acc>#MTW#END / <end ISO>#<id>   (windows not yet over: one Query from now)
import { entityStore } from '../store/entity-store';
import type { MaintenanceWindowRecord } from './records';

const endPartition = (accountId: string) => `A#${accountId}#MTW#END`;

const windows = entityStore<MaintenanceWindowRecord>({
  kind: 'maintenanceWindow',
  audit: { objectType: 'maintenance_window' },
  indexKeys: (record) => ({ gsi1pk: endPartition(record.account_id), gsi1sk: `${record.end_datetime}#${record.id}` }),
});

export const getMaintenanceWindow = windows.get;
export const saveMaintenanceWindow = (record: MaintenanceWindowRecord) => windows.save(record);
export const removeMaintenanceWindow = windows.remove;
export const maintenanceWindowCollection = windows.collection;

export async function insertMaintenanceWindow(record: MaintenanceWindowRecord): Promise<void> {
  if (!(await windows.insert(record))) throw new Error(`maintenance window ${record.id} already exists`);
}

/** Windows of the account that end after `nowIso` (current and future ones), soonest end first. */
export async function listWindowsEndingAfter(accountId: string, nowIso: string): Promise<MaintenanceWindowRecord[]> {
  return windows.query(endPartition(accountId), { index: 'gsi1', skBetween: [nowIso, '~'] });
}
