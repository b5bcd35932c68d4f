// Generic item access for the single table (the primitives under lib/store/entity-store.ts and the
// areas' store.ts files). Account-owned entities live in the partition
// `A#<account>#<TYPE>` with their ULID as sort key: a GetItem can only ever find the caller's own
// object (isolation by key), and a list is a strongly consistent Query, newest first, never a Scan.
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
} from './commands';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { EntityType } from '../entities';
import { db, tableName } from './client';
import { ItemTooLarge, MAX_ITEM_BYTES } from './errors';
import { GroupCommit } from '../group-commit';

export { ItemTooLarge, MAX_ITEM_BYTES };

export type Item = Record<string, unknown>;

export interface Key {
  pk: string;
  sk: string;
}

export function partitionOf(accountId: string, type: EntityType): string {
  return `A#${accountId}#${type}`;
}

export function entityKey(accountId: string, type: EntityType, id: string): Key {
  return { pk: partitionOf(accountId, type), sk: id };
}

const KEY_ATTRIBUTES = ['pk', 'sk', ...[1, 2, 3, 4, 5, 6].flatMap((n) => [`gsi${n}pk`, `gsi${n}sk`])];

/** The domain object stored in an item: the item without its key attributes. */
export function fromItem<T>(item: Item): T {
  const copy: Item = { ...item };
  for (const attribute of KEY_ATTRIBUTES) delete copy[attribute];
  return copy as T;
}

const utf8Bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/**
 * Throws ItemTooLarge when an item would pass the store's limit. The JSON size is a little above
 * DynamoDB's own count (quotes, commas), so an item it lets through always fits; a typical item is a
 * few KB, and only items over a tenth of the limit are measured attribute by attribute.
 */
export function checkItemSize(item: Item): void {
  const total = utf8Bytes(item);
  if (total <= MAX_ITEM_BYTES) return;
  let largest = { attribute: '', bytes: 0 };
  for (const [attribute, value] of Object.entries(item)) {
    const bytes = utf8Bytes(value) + Buffer.byteLength(attribute, 'utf8');
    if (bytes > largest.bytes) largest = { attribute, bytes };
  }
  throw new ItemTooLarge(total, largest);
}

export function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

async function readOne(key: Key, consistent: boolean): Promise<Item | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return (out.Item as Item | undefined) ?? null;
}

/** One BatchGetItem of up to 100 distinct keys, its unprocessed keys asked for again; the items found by `pk|sk`. */
async function readMany(keys: Key[], consistent: boolean): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  let pending = keys;
  for (let attempt = 0; pending.length > 0; attempt++) {
    const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }));
    for (const item of (out.Responses?.[tableName()] ?? []) as Item[]) found.set(keyString(keyOfItem(item)), item);
    pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
    if (pending.length > 0) {
      if (attempt >= 8) throw new Error('BatchGet left keys unprocessed after retries');
      await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
  return found;
}

/**
 * One group of reads (lib/group-commit.ts): a lone key is a GetItem, more are one BatchGetItem of
 * their distinct keys. A key the table refuses (ValidationException: an empty or oversized key part
 * from somebody's input) refuses the whole batch: each key is then read alone, so only its own
 * caller sees the error.
 */
async function readGroup(keys: Key[], consistent: boolean): Promise<Array<Item | null | Error>> {
  const unique = [...new Map(keys.map((k) => [keyString(k), k])).values()];
  if (unique.length === 1) {
    const item = await readOne(unique[0], consistent);
    return keys.map(() => item);
  }
  let found: Map<string, Item>;
  try {
    found = await readMany(unique, consistent);
  } catch (error) {
    if ((error as { name?: string })?.name !== 'ValidationException') throw error;
    const alone = new Map<string, Item | null | Error>();
    await Promise.all(
      unique.map(async (k) =>
        alone.set(keyString(k), await readOne(k, consistent).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))))),
      ),
    );
    return keys.map((k) => alone.get(keyString(k)) ?? null);
  }
  return keys.map((k) => found.get(keyString(k)) ?? null);
}

/**
 * Point reads of the whole process share round trips: a read asked for while another is in flight
 * waits for the next turn of the event loop and goes out with the reads asked for meanwhile, as one
 * BatchGetItem (up to 100 keys, four groups in flight). A read with nothing else in flight goes out
 * at once as a GetItem: a Lambda instance serving one request reads as before, with no turn's wait.
 * The local runtime, where the API, the queue workers and the sweeper share one process and one
 * emulator, reads the alerts, escalation states, teams and people of dozens of concurrent steps in a
 * few calls instead of one each (issue 21: calls an alert under load). Same items and read units
 * either way (each item is charged on its own size, strongly consistent or not as asked).
 */
class GroupedReads {
  private readonly group: GroupCommit<Key, Item | null>;
  /** Reads sent at once (not through the group) and not answered yet. */
  private alone = 0;

  constructor(private readonly consistent: boolean) {
    this.group = new GroupCommit((keys) => readGroup(keys, consistent), 100, 4);
  }

  get(key: Key): Promise<Item | null> {
    if (this.alone > 0 || !this.group.idle) return this.group.add(key);
    this.alone += 1;
    return readOne(key, this.consistent).finally(() => {
      this.alone -= 1;
    });
  }

  /** Keys asked for together always share the group (one BatchGetItem for them, not a GetItem and a batch of the rest). */
  getAll(keys: readonly Key[]): Promise<Array<Item | null>> {
    return Promise.all(keys.map((key) => this.group.add(key)));
  }
}

const groupedReads = { consistent: new GroupedReads(true), eventual: new GroupedReads(false) };

/** One item, strongly consistent unless asked otherwise; null when absent. Shares a BatchGetItem with concurrent reads. */
export function getItem(key: Key, consistent = true): Promise<Item | null> {
  return (consistent ? groupedReads.consistent : groupedReads.eventual).get(key);
}

/** Reads the items, up to 100 a round trip shared with concurrent reads (getItem); the result is keyed
 * by `pk|sk`, absent keys missing. `consistent: false` reads at half the units what may lag a write by
 * about a second. */
export async function batchGet(keys: Key[], { consistent = true }: { consistent?: boolean } = {}): Promise<Map<string, Item>> {
  const unique = [...new Map(keys.map((k) => [keyString(k), k])).values()];
  if (unique.length === 0) return new Map();
  const items =
    unique.length === 1
      ? [await getItem(unique[0], consistent)]
      : await (consistent ? groupedReads.consistent : groupedReads.eventual).getAll(unique);
  const found = new Map<string, Item>();
  unique.forEach((key, i) => {
    const item = items[i];
    if (item) found.set(keyString(key), item);
  });
  return found;
}

export function keyString(key: Key): string {
  return `${key.pk}|${key.sk}`;
}

/** The key of an item read from the table; the key schema makes pk and sk text on every item. */
export function keyOfItem(item: Item): Key {
  const { pk, sk } = item;
  if (typeof pk !== 'string' || typeof sk !== 'string') throw new Error('an item without a text pk and sk');
  return { pk, sk };
}

export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

function requestKey(request: WriteRequest): string {
  return keyString('PutRequest' in request ? keyOfItem(request.PutRequest.Item) : request.DeleteRequest.Key);
}

/** BatchWriteItem in chunks of 25, retrying unprocessed requests with backoff. Unconditional: for
 * items whose ids were just generated, link items, and bulk loads. Several requests for one key
 * (which one BatchWriteItem refuses) collapse into the last of them, as one-by-one writes would end. */
export async function batchWrite(all: WriteRequest[]): Promise<void> {
  const byKey = new Map<string, WriteRequest>();
  for (const request of all) {
    const key = requestKey(request);
    byKey.delete(key);
    byKey.set(key, request);
  }
  const requests = [...byKey.values()];
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

/** Writes a new item; false when an item with that key already exists. */
export async function putNew(item: Item): Promise<boolean> {
  checkItemSize(item);
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Replaces an item only when its stored `version` is `expectedVersion`; false when it changed meanwhile. */
export async function putIfVersion(item: Item, expectedVersion: number): Promise<boolean> {
  checkItemSize(item);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: 'attribute_exists(pk) AND #version = :expected',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':expected': expectedVersion },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Writes a copy that follows another item (a link that carries some of an object's attributes) unless
 * the stored copy comes from a later version of it: copies written out of order never go backwards.
 * False when a later copy is stored.
 */
export async function putIfNotNewer(item: Item, versionAttribute: string, version: number): Promise<boolean> {
  checkItemSize(item);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...item, [versionAttribute]: version },
        ConditionExpression: 'attribute_not_exists(pk) OR #v <= :v',
        ExpressionAttributeNames: { '#v': versionAttribute },
        ExpressionAttributeValues: { ':v': version },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function putItem(item: Item): Promise<void> {
  checkItemSize(item);
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
}

/** Deletes an item and returns what it held, or null when there was nothing to delete. */
export async function deleteItem(key: Key): Promise<Item | null> {
  try {
    const out = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    return (out.Attributes as Item | undefined) ?? null;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

export interface QueryOptions {
  index?: string;
  forward?: boolean;
  limit?: number;
  skBeginsWith?: string;
  skBetween?: [string, string];
  /** Only these attributes of each item (a ProjectionExpression): a read of a few fields of wide counter items. */
  project?: readonly string[];
  /** False: an eventually consistent read of the table (half the units; may lag a write by about a second). */
  consistent?: boolean;
}

function queryInput(partition: string, options: QueryOptions): QueryCommandInput {
  const pkName = options.index ? `${options.index}pk` : 'pk';
  const skName = options.index ? `${options.index}sk` : 'sk';
  const names: Record<string, string> = { '#pk': pkName };
  const values: Record<string, unknown> = { ':pk': partition };
  let condition = '#pk = :pk';
  if (options.skBeginsWith !== undefined) {
    names['#sk'] = skName;
    values[':prefix'] = options.skBeginsWith;
    condition += ' AND begins_with(#sk, :prefix)';
  } else if (options.skBetween) {
    names['#sk'] = skName;
    values[':from'] = options.skBetween[0];
    values[':to'] = options.skBetween[1];
    condition += ' AND #sk BETWEEN :from AND :to';
  }
  if (options.project) options.project.forEach((attribute, i) => (names[`#p${i}`] = attribute));
  return {
    TableName: tableName(),
    IndexName: options.index,
    KeyConditionExpression: condition,
    ...(options.project ? { ProjectionExpression: options.project.map((_, i) => `#p${i}`).join(', ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: options.forward ?? true,
    ConsistentRead: options.index ? undefined : (options.consistent ?? true),
  };
}

/**
 * A sort-key range whose lower bound sorts after its upper one (a window asked for backwards) holds
 * no item, and DynamoDB refuses its BETWEEN as a ValidationException: it is answered as empty
 * without a call. Bounds compare as DynamoDB compares strings (UTF-8 bytes), not as JavaScript does.
 */
function isEmptyRange(range: [string, string] | undefined): boolean {
  return range !== undefined && Buffer.compare(Buffer.from(range[0]), Buffer.from(range[1])) > 0;
}

/** Every item of one partition (or index partition), in key order, page by page. */
export async function* queryAll(partition: string, options: QueryOptions = {}): AsyncGenerator<Item> {
  if (isEmptyRange(options.skBetween)) return;
  const input = queryInput(partition, options);
  let remaining = options.limit ?? Infinity;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        ...input,
        ExclusiveStartKey: startKey,
        Limit: Number.isFinite(remaining) ? Math.min(remaining, 1000) : undefined,
      }),
    );
    for (const item of (out.Items ?? []) as Item[]) {
      yield item;
      remaining -= 1;
    }
    startKey = out.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (startKey && remaining > 0);
}

/** How many items a partition (or index partition) holds: a COUNT Query, page by page. For exact
 * recounts and tests; request paths read the counters instead. */
export async function countItems(partition: string, options: Pick<QueryOptions, 'index' | 'skBetween'> = {}): Promise<number> {
  if (isEmptyRange(options.skBetween)) return 0;
  const input = queryInput(partition, options);
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: startKey }));
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (startKey);
  return count;
}

const DAY_MS = 86_400_000;

/**
 * The days [fromDay, toDay] (`YYYY-MM-DD`) cut into at most `parts` consecutive ranges of whole days
 * (fewer when the range is short: at least `minDays` each), for Queries read side by side.
 */
export function splitDayRange(fromDay: string, toDay: string, parts: number, minDays: number): Array<[string, string]> {
  const from = Date.parse(`${fromDay}T00:00:00.000Z`);
  const days = Math.round((Date.parse(`${toDay}T00:00:00.000Z`) - from) / DAY_MS) + 1;
  const count = Math.max(1, Math.min(parts, Math.floor(days / minDays)));
  const size = Math.ceil(days / count);
  const day = (n: number) => new Date(from + n * DAY_MS).toISOString().slice(0, 10);
  const ranges: Array<[string, string]> = [];
  for (let start = 0; start < days; start += size) ranges.push([day(start), day(Math.min(days, start + size) - 1)]);
  return ranges;
}

/**
 * The items of several sort-key ranges of one partition, one Query each, side by side, in the order of
 * the ranges. A long range read in parts is answered sooner: the emulator (or DynamoDB) reads one part
 * while the items of another are parsed, instead of the two waiting on each other.
 */
export async function queryRanges(
  partition: string,
  ranges: Array<[string, string]>,
  options: Omit<QueryOptions, 'skBetween'> = {},
): Promise<Item[]> {
  return (await Promise.all(ranges.map((range) => queryItems(partition, { ...options, skBetween: range })))).flat();
}

export async function queryItems(partition: string, options: QueryOptions = {}): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of queryAll(partition, options)) items.push(item);
  return items;
}
