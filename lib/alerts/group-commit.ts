// Group commit for the two writes every alert change makes besides the alert itself: the counter
// ADD on the account's alert counter item and the timeline log put. Each writer keeps at most one
// write in flight; entries that arrive meanwhile are merged into the next write (counter deltas
// summed, log puts sent as one BatchWrite). Every caller still awaits the write that carries its
// entry, so nothing is answered before it is stored. One request alone is written at once, as
// before; under load (a busy process, a worker's batch) the writes per change fall well below two,
// and the one counter item per account, a hot key, sees far fewer writes.
import { adjustCounts } from '../store/counters';
import type { EntityType, Item } from '../store/items';
import { batchWrite } from './batch-write';

interface Waiter<T> {
  entry: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

class GroupCommit<T> {
  private queue: Waiter<T>[] = [];
  private draining = false;

  constructor(
    private readonly write: (entries: T[]) => Promise<void>,
    private readonly maxEntries: number,
  ) {}

  get idle(): boolean {
    return !this.draining && this.queue.length === 0;
  }

  add(entry: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxEntries);
        try {
          await this.write(batch.map((waiter) => waiter.entry));
          for (const waiter of batch) waiter.resolve();
        } catch (error) {
          for (const waiter of batch) waiter.reject(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }
}

const counters = new Map<string, GroupCommit<Record<string, number>>>();

/** adjustCounts, merged with the concurrent adjustments of the same account and type. */
export function addCounts(accountId: string, type: EntityType, deltas: Record<string, number>): Promise<void> {
  const key = `${accountId}|${type}`;
  let writer = counters.get(key);
  if (!writer) {
    writer = new GroupCommit(async (entries) => {
      const sum: Record<string, number> = {};
      for (const entry of entries) for (const [field, n] of Object.entries(entry)) sum[field] = (sum[field] ?? 0) + n;
      await adjustCounts(accountId, type, sum);
    }, 1_000);
    counters.set(key, writer);
  }
  return writer.add(deltas).finally(() => {
    // Forget idle writers so a long-lived process does not keep one per account forever.
    if (counters.get(key) === writer && writer!.idle) counters.delete(key);
  });
}

/** Puts of new items whose ids were just generated (no condition needed), 25 to a BatchWrite. */
const freshPuts = new GroupCommit<Item>((items) => batchWrite(items.map((Item) => ({ PutRequest: { Item } }))), 25);

export function putFresh(item: Item): Promise<void> {
  return freshPuts.add(item);
}
