// Inbound logs are stored by group commit (./group-commit): the requests that arrive while a write is
// in flight share the next BatchWriteItem (up to 25 items) and one counter ADD per account. New log
// ids are fresh ULIDs, so the put needs no attribute_not_exists condition (BatchWriteItem has none).
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../store/client';
import { adjustCounts } from '../../store/counters';
import { ENTITY_TYPES, type Item } from '../../store/items';
import { GroupCommit } from './group-commit';

interface NewLog {
  item: Item;
  accountId: string;
}

async function writeGroup(group: NewLog[]): Promise<void> {
  let pending = group.map((log) => ({ PutRequest: { Item: log.item } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
    pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    if (pending.length > 0) {
      if (attempt >= 8) throw new Error('BatchWrite left inbound logs unprocessed after retries');
      await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
  // Counted once they exist, as every entity is (lib/store/entities.ts).
  const perAccount = new Map<string, number>();
  for (const log of group) perAccount.set(log.accountId, (perAccount.get(log.accountId) ?? 0) + 1);
  await Promise.all([...perAccount].map(([accountId, n]) => adjustCounts(accountId, ENTITY_TYPES.log, { total: n })));
}

const logs = new GroupCommit<NewLog>(writeGroup, 25, 2);

/** Stores a new log item (keys included) and counts it in its account's LOG total. */
export function writeNewLog(item: Item, accountId: string): Promise<void> {
  return logs.add({ item, accountId });
}
