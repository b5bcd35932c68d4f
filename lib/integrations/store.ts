// Data access for integrations (lib/integrations/ACCESS-PATTERNS.md).
//   integration     A#<acc>#INT / <id>                (the account's list; isolation by key)
//   global pointer  INT#<id> / #  {account_id}        (an inbound webhook names only the integration)
//   (the rate limit's bucket, INT#<id>#RATE / BUCKET: rate-store.ts)
// The pointer is written before the integration and removed after it, so an integration that exists
// can always be found by id; a pointer left alone by a crash only leads to a 404.
import { entityStore } from '../store/entity-store';
import { deleteItem, getItem, putItem } from '../store/items';
import type { IntegrationRecord } from './records';

const pointerKey = (id: string) => ({ pk: `INT#${id}`, sk: '#' });

const integrations = entityStore<IntegrationRecord>({ kind: 'integration', audit: { objectType: 'integration' } });

export const getIntegration = integrations.get;
export const nextIntegrationTinyId = integrations.nextTinyId;
export const integrationCollection = integrations.collection;

/** The account an integration belongs to, from its id alone; null when no integration has it. */
export async function getAccountOfIntegration(id: string): Promise<string | null> {
  const pointer = await getItem(pointerKey(id));
  return pointer ? String(pointer.account_id) : null;
}

export async function insertIntegration(record: IntegrationRecord): Promise<void> {
  await putItem({ ...pointerKey(record.id), account_id: record.account_id });
  if (!(await integrations.insert(record))) throw new Error(`integration ${record.id} already exists`);
}

/** Saves a record whose version the caller raised by one; false when another write came first. */
export const saveIntegration = (record: IntegrationRecord) => integrations.save(record);

export async function removeIntegration(accountId: string, id: string): Promise<IntegrationRecord | null> {
  const removed = await integrations.remove(accountId, id);
  if (removed) await deleteItem(pointerKey(id));
  return removed;
}
