// Inbound logs are new items with fresh ULIDs, so their puts need no condition and share grouped
// BatchWriteItems with every other fresh put; each is counted in its account's LOG total.
import { addCounts, putGrouped } from '../../store/grouped-writes';
import { ENTITY_TYPES, type Item } from '../../store/items';

/** Stores a new log item (keys included) and counts it in its account's LOG total. */
export async function writeNewLog(item: Item, accountId: string): Promise<void> {
  await putGrouped(item);
  await addCounts(accountId, ENTITY_TYPES.log, { total: 1 });
}
