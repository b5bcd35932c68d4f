// The writes many requests make at once, group-committed (./group-commit): counter ADDs of one
// account and type are summed into one UpdateItem, and puts of new items share BatchWriteItems.
// Every caller still awaits the write that carries its entry, so nothing is answered before it is
// stored. A lone request (one Lambda invocation) is written at once, as a plain write; under load
// (a busy local process, a worker's batch) writes per change fall well below one, and the counter
// item, one hot key per account, sees far fewer writes.
import { sumDeltas, type CountDelta } from './count-delta';
import { adjustFields, countKey, ownerCountKey, reserveTinyIds } from './counters';
import { heldCounts, writeHeldCountsWith } from './deferred-counts';
import { GroupCommit, KeyedGroupCommit, type AddOptions } from '../group-commit';
import type { EntityType } from '../entities';
import { batchWrite, checkItemSize, type Item, type Key, type WriteRequest } from './items';

// One writer per counter item (an account's counts of a type, an owner's count, an alert's
// created_at buckets), one write in flight: deltas that arrive meanwhile are summed into the next
// UpdateItem, so a storm into one account, integration or person costs few writes.
const counterItems = new KeyedGroupCommit<Record<string, CountDelta>>(
  (key) => {
    const [pk, sk] = key.split('\u0000');
    return async (entries) => {
      const sum: Record<string, CountDelta> = {};
      for (const entry of entries) for (const [field, n] of Object.entries(entry)) sum[field] = sumDeltas(sum[field], n);
      await adjustFields({ pk, sk }, sum);
    };
  },
  1_000,
  1,
);

/** adjustFields, merged with the concurrent adjustments of the same counter item (and, inside
 * withCountsDeferred, with the other adjustments of that work). */
export function addToCounterItem(key: { pk: string; sk: string }, deltas: Record<string, CountDelta>): Promise<void> {
  const id = `${key.pk}\u0000${key.sk}`;
  const held = heldCounts();
  if (!held) return counterItems.add(id, deltas);
  const sum = held.get(id) ?? {};
  for (const [field, n] of Object.entries(deltas)) sum[field] = sumDeltas(sum[field], n);
  held.set(id, sum);
  return Promise.resolve();
}

// What a deferred scope held is written here, summed, once its work is done: nothing of the work
// waits for it, so in background work it may wait for other work's sums (setUnhurriedLinger).
writeHeldCountsWith((id, sum) => counterItems.add(id, sum, { unhurried: true }));

/** adjustCounts, merged with the concurrent adjustments of the same account and type. */
export function addCounts(accountId: string, type: EntityType, deltas: Record<string, number>): Promise<void> {
  return addToCounterItem(countKey(accountId, type), deltas);
}

/** adjustOwnerCounts, merged with the concurrent adjustments of the same owner count. */
export function addOwnerCounts(accountId: string, type: EntityType, deltas: Record<string, number>): Promise<void> {
  const writes = Object.entries(deltas)
    .filter(([, n]) => n !== 0)
    .map(([owner, n]) => addToCounterItem(ownerCountKey(accountId, type, owner), { n }));
  return Promise.all(writes).then(() => undefined);
}

/** Unconditional puts, 25 to a BatchWrite: new items whose ids were just generated, and whole-item
 * rewrites where every concurrent writer would write the same state (a webhook log's outcome). */
const groupedPuts = new GroupCommit<Item>((items) => batchWrite(items.map((item) => ({ PutRequest: { Item: item } }))), 25, 2);

export function putGrouped(item: Item): Promise<void> {
  // Checked alone, so an item too large fails its own write and never the group's BatchWrite.
  checkItemSize(item);
  return groupedPuts.add(item);
}

/** Index items of new objects (an alert's word items), 25 to a BatchWrite and several BatchWrites in
 * flight: they are idempotent and written before the object, so ingest never queues behind them. */
const indexPuts = new GroupCommit<Item>((items) => batchWrite(items.map((item) => ({ PutRequest: { Item: item } }))), 25, 6);

export function putIndexItems(items: Item[]): Promise<void> {
  for (const item of items) checkItemSize(item);
  return Promise.all(items.map((item) => indexPuts.add(item))).then(() => undefined);
}

/** Unconditional deletes of index items whose object moved on (an alert's unrouted entry once it is
 * routed), 25 to a BatchWrite: idempotent, and no write of the same key can be waiting beside them
 * (the entry was put before the object it follows, and is put again only by a re-drive's update). */
const indexDeletes = new GroupCommit<Key>((keys) => batchWrite(keys.map((key) => ({ DeleteRequest: { Key: key } }))), 25, 2);

export function deleteIndexItem(key: Key, options: AddOptions = {}): Promise<void> {
  return indexDeletes.add(key, options);
}

/** Puts and deletes that must land in the order they were asked for (link items that follow an
 * object's changes): one group in flight at a time, and within a group the last request for a key
 * wins (lib/store/items.ts batchWrite). */
const orderedWrites = new GroupCommit<WriteRequest>((requests) => batchWrite(requests), 25, 1, { ordered: true });

export function writeInOrder(requests: WriteRequest[]): Promise<void> {
  return Promise.all(requests.map((request) => orderedWrites.add(request))).then(() => undefined);
}

// Tiny ids of one account and type are handed out in blocks: concurrent creates share one ADD n. A
// block of one object whose id is given is reserved under that id (reserveTinyIds: the item's last
// reservations then say which object took which number, as strongly consistent as the item).
const tinyIds = new KeyedGroupCommit<string | null, number>(
  (key) => {
    const [accountId, type] = key.split('|') as [string, EntityType];
    return async (entries) => {
      const last = await reserveTinyIds(accountId, type, entries.length, entries.length === 1 ? (entries[0] ?? undefined) : undefined);
      return entries.map((_, i) => last - entries.length + 1 + i);
    };
  },
  1_000,
  1,
);

/** The next per-account tiny id of a type: 1, 2, 3, … (docs/api.md#ids), without gaps or repeats.
 * `objectId`: the object that takes it, named in the reservation when it is reserved alone. */
export function nextTinyId(accountId: string, type: EntityType, objectId?: string): Promise<number> {
  return tinyIds.add(`${accountId}|${type}`, objectId ?? null);
}
