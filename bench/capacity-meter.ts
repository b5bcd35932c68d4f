// The DynamoDB request units a piece of the service consumes, per step and per table or index, as
// on-demand DynamoDB bills them (issue 21: "ReturnConsumedCapacity INDEXES on every call").
//
// One middleware on the process's table client (lib/store/client.ts, which every store file
// uses) asks every call for ReturnConsumedCapacity INDEXES, so no call site changes:
// - reads (GetItem, BatchGetItem, Query) and the table's part of every write are what the emulator
//   reports (dynalite: item size per 4 KB read, half when eventually consistent; per 1 KB written,
//   the larger of the old and new item);
// - index writes are computed, because dynalite reports none: the meter reads the items a write
//   touches just before and after it (with a client of its own, not metered; writes are metered one
//   at a time so no other write slips in between), and charges each index of lib/store/table.ts as
//   DynamoDB does: a put when the item enters the index, a delete when it leaves, both when a key of
//   the index changes, one write when a projected attribute changes, nothing otherwise; each the
//   projected size (keys only, or the whole item) per 1 KB;
// - a write whose condition fails costs the existing item's size per 1 KB on DynamoDB (the emulator
//   reports nothing for it): computed the same way.
import { createRequire } from 'node:module';
import { BatchGetItemCommand, DynamoDBClient, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { db } from '../lib/store/client';
import { INDEXES, PARTITION_KEY, SORT_KEY } from '../lib/store/table';
import { invocation } from '../infra/local/sqs-poller';

type Item = Record<string, AttributeValue>;

// The emulator's own measure of an item's size (the one its reported units come from).
const dynalite = createRequire(import.meta.url)('dynalite/db') as { itemSize(item: Item): number };

export interface Units {
  /** Write units of the base table. */
  tableWrite: number;
  /** Write units per index. */
  indexWrite: Record<string, number>;
  /** Read units of the base table and of each index. */
  tableRead: number;
  indexRead: Record<string, number>;
  calls: Record<string, number>;
  /** Writes whose condition failed (charged on DynamoDB too). */
  failedConditions: number;
  /** Write units (table and indexes) per kind of item: its partition key with ids left out. */
  byItem: Record<string, number>;
  /** Read units per kind of item read (a Query: its partition; a BatchGetItem: `batch`). */
  readByItem: Record<string, number>;
  /** The largest size (bytes, as DynamoDB counts them) each kind of item reached after a write. */
  itemBytes: Record<string, number>;
}

export const emptyUnits = (): Units => ({
  tableWrite: 0,
  indexWrite: {},
  tableRead: 0,
  indexRead: {},
  calls: {},
  failedConditions: 0,
  byItem: {},
  readByItem: {},
  itemBytes: {},
});

export const totalWrite = (u: Units) => u.tableWrite + Object.values(u.indexWrite).reduce((a, b) => a + b, 0);
export const totalRead = (u: Units) => u.tableRead + Object.values(u.indexRead).reduce((a, b) => a + b, 0);

const add = (into: Record<string, number>, name: string, n: number) => {
  if (n) into[name] = (into[name] ?? 0) + n;
};

const writeUnits = (item: Item | undefined) => (item ? Math.max(1, Math.ceil(dynalite.itemSize(item) / 1024)) : 0);

function projected(item: Item, index: (typeof INDEXES)[number]): Item | undefined {
  if (!item[index.partitionKey] || !item[index.sortKey]) return undefined;
  if ((index.projection ?? 'ALL') === 'ALL') return item;
  const keys = [PARTITION_KEY, SORT_KEY, index.partitionKey, index.sortKey];
  return Object.fromEntries(keys.map((k) => [k, item[k]]));
}

const same = (a: AttributeValue | undefined, b: AttributeValue | undefined) => JSON.stringify(a) === JSON.stringify(b);
const sameItem = (a: Item, b: Item) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => same(a[k], b[k]));

/** What one item's write costs each index, from the item before and after it. */
export function indexWriteUnits(before: Item | undefined, after: Item | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const index of INDEXES) {
    const old = before && projected(before, index);
    const now = after && projected(after, index);
    if (!old && !now) continue;
    if (!old || !now) {
      add(out, index.name, writeUnits(old ?? now));
      continue;
    }
    const keyMoved = !same(old[index.partitionKey], now[index.partitionKey]) || !same(old[index.sortKey], now[index.sortKey]);
    if (keyMoved) add(out, index.name, writeUnits(old) + writeUnits(now));
    else if (!sameItem(old, now)) add(out, index.name, Math.max(writeUnits(old), writeUnits(now)));
  }
  return out;
}

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** What a step is told of a call: its command and, for a Query, the partition it reads. */
export interface MeteredCall {
  command: string;
  partition?: string;
}

interface Input {
  ExpressionAttributeValues?: Record<string, AttributeValue>;
  TableName?: string;
  Key?: Item;
  Item?: Item;
  ReturnConsumedCapacity?: string;
  RequestItems?: Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>;
}

/** An item's kind: its partition key without the account and other ids (`A#<acc>#ALERT#L#team#<id>` → `ALERT#L#team`). */
function itemKind(key: Item): string {
  const pk = key[PARTITION_KEY]?.S ?? '?';
  const kind = pk
    .replace(/^A#[^#]+#?/, '')
    .split('#')
    .filter((part) => !/[0-9]/.test(part) || /^[A-Z]+$/.test(part))
    .join('#');
  return `${kind || pk}${key[SORT_KEY]?.S && /^[A-Z_]+$/.test(key[SORT_KEY].S) ? ` / ${key[SORT_KEY].S}` : ''}`;
}

/** A Query's partition (`:pk`): the input the meter sees is the client's own, marshalled (lib/store/commands.ts). */
const partitionOf = (input: Input): string | undefined => input.ExpressionAttributeValues?.[':pk']?.S;

function readKind(command: string, input: Input): string {
  if (command === 'GetItem' && input.Key) return itemKind(keysOf('DeleteItem', input)[0].key);
  const partition = partitionOf(input);
  if (command === 'Query' && partition !== undefined) return `${itemKind({ [PARTITION_KEY]: { S: partition } })} (query)`;
  if (command === 'BatchGetItem') {
    const keys = Object.values(input.RequestItems ?? {}).flatMap((r) => (r as unknown as { Keys?: Item[] }).Keys ?? []);
    const kinds = [...new Set(keys.map((key) => itemKind(keysOf('DeleteItem', { TableName: '', Key: key })[0].key)))];
    return `batch of ${kinds.sort().join(', ') || '?'}`;
  }
  return command;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

function keysOf(command: string, input: Input): { table: string; key: Item }[] {
  // The client's own command: its input is marshalled (lib/store/commands.ts).
  const keyOf = (item: Item): Item => ({ [PARTITION_KEY]: item[PARTITION_KEY], [SORT_KEY]: item[SORT_KEY] });
  if (command === 'PutItem') return [{ table: input.TableName!, key: keyOf(input.Item!) }];
  if (command === 'UpdateItem' || command === 'DeleteItem') return [{ table: input.TableName!, key: keyOf(input.Key!) }];
  return Object.entries(input.RequestItems ?? {}).flatMap(([table, requests]) =>
    requests.map((r) => ({ table, key: keyOf(r.PutRequest?.Item ?? r.DeleteRequest!.Key) })),
  );
}

export interface CapacityMeter {
  /** Units per step so far (the step is what `step` returns when the call is made). */
  readonly steps: Map<string, Units>;
  stop(): void;
}

/**
 * Meters the process's DynamoDB calls from now until stop(). `step` names the step a call belongs
 * to, given the worker function running it (undefined: the API or a scheduled function).
 */
export function meterCapacity(endpoint: string, step: (functionName: string | undefined, call: MeteredCall) => string): CapacityMeter {
  const steps = new Map<string, Units>();
  const unitsOf = (name: string) => {
    let u = steps.get(name);
    if (!u) steps.set(name, (u = emptyUnits()));
    return u;
  };
  const images = new DynamoDBClient({ endpoint, maxAttempts: 4 });
  const read = async (keys: { table: string; key: Item }[]): Promise<Map<string, Item>> => {
    const found = new Map<string, Item>();
    const byTable: Record<string, { Keys: Item[]; ConsistentRead: true }> = {};
    for (const { table, key } of keys) (byTable[table] ??= { Keys: [], ConsistentRead: true }).Keys.push(key);
    if (keys.length === 0) return found;
    const out = await images.send(new BatchGetItemCommand({ RequestItems: byTable }));
    for (const items of Object.values(out.Responses ?? {})) for (const item of items) found.set(JSON.stringify([item.pk, item.sk]), item);
    return found;
  };
  // Writes one at a time: the images before and after a write are that write's alone.
  let writeChain: Promise<unknown> = Promise.resolve();
  const name = 'capacityMeter';
  const client = db();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'Unknown').replace(/Command$/, '');
      const input = args.input as Input;
      const units = unitsOf(step(invocation.getStore()?.functionName, { command, partition: partitionOf(input) }));
      add(units.calls, command, 1);
      input.ReturnConsumedCapacity = 'INDEXES';
      if (!WRITES.has(command)) {
        const result = await next(args);
        for (const c of [(result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity ?? []].flat()) {
          const indexUnits = Object.entries(c.GlobalSecondaryIndexes ?? {});
          for (const [index, { CapacityUnits = 0 }] of indexUnits) add(units.indexRead, index, CapacityUnits);
          units.tableRead += c.Table?.CapacityUnits ?? c.CapacityUnits ?? 0;
          add(units.readByItem, readKind(command, input), c.CapacityUnits ?? 0);
        }
        return result;
      }
      const keys = keysOf(command, input);
      const turn = writeChain.then(async () => {
        const before = await read(keys);
        try {
          const result = await next(args);
          const after = await read(keys);
          for (const c of [(result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity ?? []].flat()) {
            units.tableWrite += c.Table?.CapacityUnits ?? c.CapacityUnits ?? 0;
          }
          for (const { key } of keys) {
            const id = JSON.stringify([key.pk, key.sk]);
            const kind = itemKind(key);
            add(units.byItem, kind, Math.max(writeUnits(before.get(id)), writeUnits(after.get(id)), 1));
            const written = after.get(id);
            // Packed timeline entries (lib/logs/packed.ts) are shown apart: their size is what keeps them at 1 unit.
            const sizeKind = written && 'pack' in written ? `${kind} (packed)` : kind;
            if (written) units.itemBytes[sizeKind] = Math.max(units.itemBytes[sizeKind] ?? 0, dynalite.itemSize(written));
            for (const [index, n] of Object.entries(indexWriteUnits(before.get(id), after.get(id)))) {
              add(units.indexWrite, index, n);
              add(units.byItem, kind, n);
            }
          }
          return result;
        } catch (error) {
          if ((error as { name?: string }).name === 'ConditionalCheckFailedException') {
            units.failedConditions += 1;
            units.tableWrite += Math.max(1, writeUnits(before.get(JSON.stringify([keys[0].key.pk, keys[0].key.sk]))));
          }
          throw error;
        }
      });
      writeChain = turn.catch(() => undefined);
      return turn;
    },
    { step: 'initialize', name },
  );
  return {
    steps,
    stop() {
      client.middlewareStack.remove(name);
      images.destroy();
    },
  };
}
