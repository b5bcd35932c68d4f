// Data access for integrations.
//   integration     A#<acc>#INT / <id>                (the account's list; isolation by key)
//   global pointer  INT#<id> / #  {account_id}        (an inbound webhook names only the integration)
// The pointer is written before the integration and removed after it, so an integration that exists
// can always be found by id; a pointer left alone by a crash only leads to a 404.
import { insertEntity, loadEntity, removeEntity, saveEntity } from '../store/entities';
import { deleteItem, ENTITY_TYPES, getItem, putItem } from '../store/items';
import type { IntegrationRecord } from './records';

const TYPE = ENTITY_TYPES.integration;

export const integrationPointerKey = (id: string) => ({ pk: `INT#${id}`, sk: '#' });

export async function getIntegration(accountId: string, id: string): Promise<IntegrationRecord | null> {
  return loadEntity<IntegrationRecord>(accountId, TYPE, id);
}

/** The account an integration belongs to, from its id alone; null when no integration has it. */
export async function accountOfIntegration(id: string): Promise<string | null> {
  const pointer = await getItem(integrationPointerKey(id));
  return pointer ? String(pointer.account_id) : null;
}

export async function createIntegrationRecord(record: IntegrationRecord): Promise<void> {
  await putItem({ ...integrationPointerKey(record.id), account_id: record.account_id });
  if (!(await insertEntity(TYPE, record))) throw new Error(`integration ${record.id} already exists`);
}

/** Saves a record whose version the caller raised by one; false when another write came first. */
export async function saveIntegration(record: IntegrationRecord): Promise<boolean> {
  return saveEntity(TYPE, record);
}

export async function deleteIntegrationRecord(accountId: string, id: string): Promise<IntegrationRecord | null> {
  const removed = await removeEntity<IntegrationRecord>(accountId, TYPE, id);
  if (removed) await deleteItem(integrationPointerKey(id));
  return removed;
}
