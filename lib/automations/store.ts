// Data access for automations (lib/automations/ACCESS-PATTERNS.md).
//   automation   A#<acc>#ATM / <id>   (its runs are logs owned by atm_<id>: lib/logs/store.ts)
import { entityStore } from '../store/entity-store';
import type { AutomationRecord } from './records';

const automations = entityStore<AutomationRecord>({ kind: 'automation', audit: { objectType: 'automation' } });

export const getAutomation = automations.get;
export const automationCollection = automations.collection;
export const removeAutomation = automations.remove;

/** Saves a record whose version the caller raised by one; false when another write came first. */
export const saveAutomation = (record: AutomationRecord) => automations.save(record);

export async function insertAutomation(record: AutomationRecord): Promise<void> {
  if (!(await automations.insert(record))) throw new Error(`automation ${record.id} already exists`);
}
