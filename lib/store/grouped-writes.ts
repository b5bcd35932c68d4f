// The writes many requests make at once, group-committed (./group-commit): counter ADDs of one
// account and type are summed into one UpdateItem, and puts of new items share BatchWriteItems.
// Every caller still awaits the write that carries its entry, so nothing is answered before it is
// stored. A lone request (one Lambda invocation) is written at once, as a plain write; under load
// (a busy local process, a worker's batch) writes per change fall well below one, and the counter
// item, one hot key per account, sees far fewer writes.
import { adjustCounts } from './counters';
import { GroupCommit } from '../group-commit';
import { batchWrite, type EntityType, type Item } from './items';

const counters = new Map<string, GroupCommit<Record<string, number>>>();

/** adjustCounts, merged with the concurrent adjustments of the same account and type. */
export function addCounts(accountId: string, type: EntityType, deltas: Record<string, number>): Promise<void> {
  const key = `${accountId}|${type}`;
  let writer = counters.get(key);
  if (!writer) {
    writer = new GroupCommit<Record<string, number>>(
      async (entries) => {
        const sum: Record<string, number> = {};
        for (const entry of entries) for (const [field, n] of Object.entries(entry)) sum[field] = (sum[field] ?? 0) + n;
        await adjustCounts(accountId, type, sum);
      },
      1_000,
      1,
    );
    counters.set(key, writer);
  }
  const used = writer;
  return used.add(deltas).finally(() => {
    // Forget idle writers so a long-lived process does not keep one per account forever.
    if (counters.get(key) === used && used.idle) counters.delete(key);
  });
}

/** Puts of new items whose ids were just generated (no condition needed), 25 to a BatchWrite. */
const freshPuts = new GroupCommit<Item>((items) => batchWrite(items.map((item) => ({ PutRequest: { Item: item } }))), 25, 2);

export function putFresh(item: Item): Promise<void> {
  return freshPuts.add(item);
}
