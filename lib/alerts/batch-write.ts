// BatchWriteItem with retries of unprocessed items: link items, bulk imports, grouped log puts.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import type { Item, Key } from '../store/items';

export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

/** BatchWrite in chunks of 25, retrying unprocessed items with backoff. */
export async function batchWrite(requests: WriteRequest[]): Promise<void> {
  for (let start = 0; start < requests.length; start += 25) {
    let pending = requests.slice(start, start + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
      if (pending.length > 0) {
        if (attempt >= 8) throw new Error('BatchWrite left items unprocessed after retries');
        await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      }
    }
  }
}

