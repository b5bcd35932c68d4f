// Account-owned entities: create, load, save and remove, keeping the type's exact counters in step
// (through the grouped counter writes: concurrent changes of one account share one ADD).
// `total` counts every object of the type; `counts` name further counters an object belongs to
// (e.g. `status:open` for an open alert), so an index-backed filtered list also has an exact total.
import { addCounts } from './grouped-writes';
import {
  deleteItem,
  entityKey,
  fromItem,
  getItem,
  putIfVersion,
  putNew,
  type EntityType,
  type Item,
} from './items';

export interface Entity {
  id: string;
  account_id: string;
  version: number;
}

export interface WriteOptions {
  /** GSI key attributes (gsi1pk, gsi1sk, …) for this object. */
  indexKeys?: Record<string, string | undefined>;
  /** Counters this object belongs to, besides `total`. */
  counts?: string[];
}

function itemOf(type: EntityType, record: Entity, options: WriteOptions): Item {
  const indexKeys = Object.fromEntries(Object.entries(options.indexKeys ?? {}).filter(([, v]) => v !== undefined));
  return { ...entityKey(record.account_id, type, record.id), ...indexKeys, ...record };
}

function deltas(before: string[], after: string[]): Record<string, number> {
  const change: Record<string, number> = {};
  for (const name of before) change[name] = (change[name] ?? 0) - 1;
  for (const name of after) change[name] = (change[name] ?? 0) + 1;
  return change;
}

/** Writes a new object; false when one with that id exists already. */
export async function insertEntity(type: EntityType, record: Entity, options: WriteOptions = {}): Promise<boolean> {
  if (!(await putNew(itemOf(type, record, options)))) return false;
  await addCounts(record.account_id, type, deltas([], ['total', ...(options.counts ?? [])]));
  return true;
}

export async function loadEntity<T>(accountId: string, type: EntityType, id: string): Promise<T | null> {
  const item = await getItem(entityKey(accountId, type, id));
  return item ? fromItem<T>(item) : null;
}

/**
 * Saves `record` (whose version the caller has already raised by one) only if the stored version is
 * still `record.version - 1`; false when another write came first (the caller answers 409 or retries).
 */
export async function saveEntity(
  type: EntityType,
  record: Entity,
  options: WriteOptions & { countsBefore?: string[] } = {},
): Promise<boolean> {
  if (!(await putIfVersion(itemOf(type, record, options), record.version - 1))) return false;
  if (options.countsBefore || options.counts) {
    await addCounts(record.account_id, type, deltas(options.countsBefore ?? [], options.counts ?? []));
  }
  return true;
}

/** Removes an object; returns what it held (null when absent). `countsOf` names its counters. */
export async function removeEntity<T extends Entity>(
  accountId: string,
  type: EntityType,
  id: string,
  countsOf: (record: T) => string[] = () => [],
): Promise<T | null> {
  const item = await deleteItem(entityKey(accountId, type, id));
  if (!item) return null;
  const record = fromItem<T>(item);
  await addCounts(accountId, type, deltas(['total', ...countsOf(record)], []));
  return record;
}
