// The one generic store of the objects an account owns (kinds of lib/entities.ts with a `type`):
// each area's store.ts builds its store on it and adds the keys and queries only it knows.
//   object   A#<account>#<TYPE> / <ULID>      (+ the index keys the area derives)
//   counts   A#<account>#COUNT / <TYPE>       total, and the counters an object belongs to
//   owners   A#<account>#OCOUNT#<TYPE> / <owner key>   n: per-owner counts, for kinds listed by owner
// Creates are conditional on absence, saves on the version read, removes on presence; counters
// move with each write through the grouped counter writes (lib/store/grouped-writes.ts).
import { ENTITIES, typeOf, type EntityInfo, type EntityType, type StoredKind } from '../entities';
import { newId } from '../ids';
import { adjustCounts, adjustOwnerCounts, readCounts, readOwnerCount } from './counters';
import { addCounts, addOwnerCounts, nextTinyId } from './grouped-writes';
import { registerCountedKind, registerOwnerCountedKind } from './recount';
import { currentActor } from '../audit-actor';
import { auditedDelete, finishEvent, prepareCreate, prepareUpdate, withoutCarried } from './audit-carried';
import {
  batchGet,
  batchWrite,
  checkItemSize,
  deleteItem,
  entityKey,
  fromItem,
  getItem,
  keyString,
  partitionOf,
  putIfVersion,
  putNew,
  queryItems,
  type Item,
  type Key,
  type QueryOptions,
} from './items';
import { nowIso } from '../clock';

export interface Entity {
  id: string;
  account_id: string;
  version: number;
}

/** The attributes every new object starts with: a new id, version 1, created and updated now. */
export function newEntity(accountId: string, now = nowIso()) {
  return { id: newId(), account_id: accountId, version: 1, created_at: now, updated_at: now };
}

/** GSI key attributes (gsi1pk, gsi1sk, …); undefined ones are left out. */
export type IndexKeys = Record<string, string | undefined>;

export interface EntityStoreOptions<T extends Entity> {
  kind: StoredKind;
  /** The index keys of a record (default: none). */
  indexKeys?: (record: T) => IndexKeys;
  /** Counters a record belongs to besides `total` (e.g. `status:open`), kept exact by every write. */
  counts?: (record: T) => string[];
  /** Stored item → record (default: the item without its key attributes). */
  decode?: (item: Item) => T;
  /** Record → stored attributes (default: the record as it is). */
  encode?: (record: T) => object;
  /**
   * Stored item → every record it holds, in id order, for a kind whose items may hold several (an
   * alert's packed timeline entries, lib/logs/packed.ts); lists, queries and the recount read them
   * all. Default: the one record `decode` gives.
   */
  unpack?: (item: Item) => T[];
  /**
   * For the recount (lib/store/recount.ts): the counters a stored record is counted in, when not the
   * default (`total` and `counts(record)` of its own type), with every type it may name in
   * `countsInto`; `false` for a kind that keeps no counters (a list that reads its own index).
   */
  countedAs?: ((record: T) => Array<[EntityType, string]>) | false;
  countsInto?: EntityType[];
  /**
   * The counter item the kind's counters are fields of, when not its own type's: another type's item
   * that the same writes move anyway (a workflow opens and closes in the escalation step that pages,
   * which counts its notifications), its fields named `<prefix><counter>`. `formerType`: the counter
   * item they were kept in before, which the recount then leaves alone (nothing reads or moves it).
   */
  counterItem?: { type: EntityType; prefix: string; formerType?: EntityType };
  /**
   * The owners a record is listed under (an index partition per owner: an alert's notifications, an
   * integration's logs), each counted in its own owner count so a page of one owner carries its exact
   * total without reading the partition. Keys are short and stable (`ALT#<id>`, a prefix id).
   */
  owners?: (record: T) => string[];
  /**
   * Audited kinds (docs/api.md#audit-trail): every insert, save and remove writes an audit event of
   * this object type (snake case, as the API names it), with its changed fields.
   */
  audit?: {
    objectType: string;
    /**
     * Only a caller's changes, not the system's: for a kind whose own machinery saves it as it runs
     * (a broadcast's timers), which is its life, not a change anyone made.
     */
    callersOnly?: boolean;
  };
}

/**
 * Tells a write's own record from another writer's, for a conditional write that failed its condition:
 * an attempt of it whose answer was lost may have applied it (the SDK retried the write, and the
 * retry found the item there, or its version moved). Only the caller knows what makes its write
 * unique (a tiny id it was just given, a mark of its own call); without it a failed condition is a
 * refusal.
 */
export type OwnWrite<T> = (stored: T) => boolean;

/** A read to combine with others into one round trip (getEach). */
export interface Ref<T> {
  key: Key;
  decode(item: Item): T;
}

function deltas(before: string[], after: string[]): Record<string, number> {
  const change: Record<string, number> = {};
  for (const name of before) change[name] = (change[name] ?? 0) - 1;
  for (const name of after) change[name] = (change[name] ?? 0) + 1;
  return change;
}

export function entityStore<T extends Entity>(options: EntityStoreOptions<T>) {
  const type: EntityType = typeOf(options.kind);
  const decodeStored = options.decode ?? ((item: Item) => fromItem<T>(item));
  // An item may still carry its last change's audit event (lib/store/audit-trail.ts): not the record's.
  const decode = (item: Item) => decodeStored(withoutCarried(item));
  const unpackStored = options.unpack;
  /** Every record an item holds (in id order, or the reverse for a backward read). */
  const recordsOf = (item: Item, forward = true): T[] => {
    if (!unpackStored) return [decode(item)];
    const records = unpackStored(withoutCarried(item));
    return forward ? records : records.reverse();
  };
  /** Items read → records, at most `limit` of them (an item may hold several). */
  const recordsIn = (items: Item[], forward: boolean, limit?: number): T[] => {
    if (!unpackStored) return items.map(decode);
    const records = items.flatMap((item) => recordsOf(item, forward));
    return limit === undefined ? records : records.slice(0, limit);
  };
  const encode = options.encode ?? ((record: T) => record);
  const key = (accountId: string, id: string): Key => entityKey(accountId, type, id);
  const partition = (accountId: string) => partitionOf(accountId, type);

  const counterType = options.counterItem?.type ?? type;
  const counterPrefix = options.counterItem?.prefix ?? '';
  /** Deltas of the kind's counters as fields of its counter item. */
  const asFields = (change: Record<string, number>) =>
    counterPrefix ? Object.fromEntries(Object.entries(change).map(([name, n]) => [`${counterPrefix}${name}`, n])) : change;
  /** Moves the kind's counters (grouped with concurrent moves of the same counter item). */
  const moveCounts = (accountId: string, change: Record<string, number>) => addCounts(accountId, counterType, asFields(change));

  if (options.countedAs !== false) {
    const countedAs =
      options.countedAs ??
      ((record: T): Array<[EntityType, string]> => [
        [counterType, `${counterPrefix}total`],
        ...(options.counts?.(record) ?? []).map((name): [EntityType, string] => [counterType, `${counterPrefix}${name}`]),
      ]);
    registerCountedKind({
      type,
      partition,
      decode: (item) => recordsOf(item),
      countedAs: (records) => (records as T[]).flatMap((record) => countedAs(record)),
      countsInto: options.countsInto ?? [counterType],
      formerType: options.counterItem?.formerType,
    });
  }

  const ownersOf = options.owners;
  if (ownersOf) {
    registerOwnerCountedKind({
      type,
      partition,
      decode: (item) => recordsOf(item),
      owners: (records) => (records as T[]).flatMap((record) => ownersOf(record)),
    });
  }

  /** Adds (+1) or removes (−1) a record's owner counts; grouped with concurrent writes to the same owner. */
  function countOwners(record: T, sign: 1 | -1): Promise<void> {
    if (!ownersOf) return Promise.resolve();
    return addOwnerCounts(record.account_id, type, Object.fromEntries(ownersOf(record).map((owner) => [owner, sign])));
  }

  /** The owner changes between two versions of a record (normally none: owners are fixed at create). */
  function moveOwners(before: T, after: T): Promise<void> {
    if (!ownersOf) return Promise.resolve();
    const change = deltas(ownersOf(before), ownersOf(after));
    return addOwnerCounts(after.account_id, type, change);
  }

  /** The exact number of records listed under an owner; null when nothing was ever counted there. */
  function ownerCount(accountId: string, owner: string): Promise<number | null> {
    return readOwnerCount(accountId, type, owner);
  }

  /** The whole stored item: keys, index keys and attributes. */
  function item(record: T): Item {
    const indexKeys = Object.entries(options.indexKeys?.(record) ?? {}).filter(([, v]) => v !== undefined);
    return { ...key(record.account_id, record.id), ...Object.fromEntries(indexKeys), ...encode(record) };
  }

  const audited = () => options.audit !== undefined && !(options.audit.callersOnly && currentActor().type === 'system');
  const auditTarget = (record: { account_id: string; id: string }) => ({
    accountId: record.account_id,
    objectType: options.audit!.objectType,
    objectId: record.id,
  });

  async function get(accountId: string, id: string): Promise<T | null> {
    const found = await getItem(key(accountId, id));
    return found ? decode(found) : null;
  }

  /** Records by id in one round trip per 100, in the order asked; absent ones are left out.
   * `consistent: false` for what may lag a write by about a second, at half the read units. */
  async function getMany(accountId: string, ids: readonly string[], options: { consistent?: boolean } = {}): Promise<T[]> {
    if (ids.length === 0) return [];
    const found = await batchGet(
      ids.map((id) => key(accountId, id)),
      options,
    );
    const out: T[] = [];
    for (const id of ids) {
      const stored = found.get(keyString(key(accountId, id)));
      if (stored) out.push(decode(stored));
    }
    return out;
  }

  /** Whether the record stored now is the caller's own write (OwnWrite), after its condition failed. */
  async function isOwnWrite(record: T, own: OwnWrite<T> | undefined): Promise<boolean> {
    if (!own) return false;
    const stored = await get(record.account_id, record.id);
    return stored !== null && own(stored);
  }

  /**
   * Writes a new record and counts it; false when one with that id exists already (and is not `own`).
   * `carried`: further deltas of this type's counters that the insert adds in the same update, for
   * records it alone counts (an alert's 'created' entry: whoever writes the entry, the insert that
   * won counts it, once). `alongside`: the caller's own writes that follow the record's (its links,
   * say), made beside its counts once the insert has won: one round trip for both.
   */
  async function insert(
    record: T,
    own?: OwnWrite<T>,
    carried: Record<string, number> = {},
    alongside?: () => Promise<unknown>,
  ): Promise<boolean> {
    const stored = item(record);
    const audit = audited() ? await prepareCreate(key(record.account_id, record.id), stored, auditTarget(record)) : null;
    if (!(await putNew(stored)) && !(await isOwnWrite(record, own))) return false;
    await finishEvent(audit);
    if (options.countedAs === false) {
      await alongside?.();
      return true;
    }
    const change = deltas([], ['total', ...(options.counts?.(record) ?? [])]);
    for (const [name, n] of Object.entries(carried)) change[name] = (change[name] ?? 0) + n;
    await Promise.all([moveCounts(record.account_id, change), countOwners(record, 1), alongside?.()]);
    return true;
  }

  /**
   * Saves `next` (whose version the caller raised by one) only while the stored version is still
   * `next.version - 1`; false when another write came first (the caller answers 409 or retries).
   * With counters, `before` (the record as read) tells which counters the change moves. `own`: see
   * OwnWrite.
   */
  async function save(next: T, before?: T, own?: OwnWrite<T>): Promise<boolean> {
    const stored = item(next);
    const audit = audited() ? await prepareUpdate(key(next.account_id, next.id), stored, auditTarget(next)) : null;
    if (!(await putIfVersion(stored, next.version - 1)) && !(await isOwnWrite(next, own))) return false;
    await finishEvent(audit);
    if (before) {
      await Promise.all([
        options.counts ? moveCounts(next.account_id, deltas(options.counts(before), options.counts(next))) : undefined,
        moveOwners(before, next),
      ]);
    }
    return true;
  }

  /**
   * Writes many new records of one account at once (seeding, imports): BatchWrites of 25, then their
   * counters and owner counts summed into one ADD each. Unconditional: the ids must be new.
   */
  async function importMany(accountId: string, records: T[]): Promise<void> {
    const totals: Record<string, number> = {};
    const owners: Record<string, number> = {};
    for (const record of records) {
      if (record.account_id !== accountId) throw new Error(`importMany: a ${options.kind} of another account`);
      for (const name of ['total', ...(options.counts?.(record) ?? [])]) totals[name] = (totals[name] ?? 0) + 1;
      for (const owner of ownersOf?.(record) ?? []) owners[owner] = (owners[owner] ?? 0) + 1;
    }
    for (const record of records) checkItemSize(item(record));
    await batchWrite(records.map((record) => ({ PutRequest: { Item: item(record) } })));
    await Promise.all([adjustCounts(accountId, counterType, asFields(totals)), adjustOwnerCounts(accountId, type, owners)]);
  }

  /** Removes a record and its counts; returns what it held (null when it was absent). */
  async function remove(accountId: string, id: string): Promise<T | null> {
    const objectKey = key(accountId, id);
    const stored = audited()
      ? await auditedDelete(objectKey, auditTarget({ account_id: accountId, id }), () => deleteItem(objectKey))
      : await deleteItem(objectKey);
    if (!stored) return null;
    const record = decode(stored);
    if (options.countedAs === false) return record;
    await Promise.all([moveCounts(accountId, deltas(['total', ...(options.counts?.(record) ?? [])], [])), countOwners(record, -1)]);
    return record;
  }

  /** The account's records in creation order (newest first unless `forward`). */
  async function list(accountId: string, range: { forward?: boolean; limit?: number } = {}): Promise<T[]> {
    const forward = range.forward ?? false;
    return recordsIn(await queryItems(partition(accountId), { forward, limit: range.limit }), forward, range.limit);
  }

  /** Records of this kind found through another partition: an index, or link items (keys only). */
  async function query(partitionKey: string, query: QueryOptions = {}): Promise<T[]> {
    return recordsIn(await queryItems(partitionKey, query), query.forward ?? true, query.limit);
  }

  async function counts(accountId: string): Promise<Record<string, number>> {
    const fields = await readCounts(accountId, counterType);
    if (!counterPrefix) return fields;
    return Object.fromEntries(
      Object.entries(fields).flatMap(([field, n]) => (field.startsWith(counterPrefix) ? [[field.slice(counterPrefix.length), n]] : [])),
    );
  }

  async function firstInCreationOrder(accountId: string, forward: boolean, limit: number) {
    const [items, totals] = await Promise.all([list(accountId, { forward, limit }), counts(accountId)]);
    return { items, total: totals.total ?? 0 };
  }

  return {
    kind: options.kind,
    type,
    key,
    partition,
    item,
    decode,
    ref: (accountId: string, id: string): Ref<T> => ({ key: key(accountId, id), decode }),
    get,
    getMany,
    insert,
    importMany,
    save,
    remove,
    list,
    query,
    counts,
    countOwners,
    /** Moves the kind's counters by `change` (a write the store does not make itself, such as a conditional update). */
    moveCounts,
    ownerCount,
    /** The next per-account tiny id of this kind (docs/api.md#ids); only kinds the registry gives tiny ids.
     * `objectId`: the object that takes it (reserved alone, the reservation names it: recentTinyIdHolder). */
    nextTinyId: (accountId: string, objectId?: string) => {
      if (!(ENTITIES[options.kind] as EntityInfo).tinyId) throw new Error(`${options.kind} objects have no tiny ids (lib/entities.ts)`);
      return nextTinyId(accountId, type, objectId);
    },
    /** The account's records as a list source reads them (lib/list/sources.ts Collection). */
    collection: (accountId: string) => ({
      all: (limit?: number) => list(accountId, { limit }),
      size: async () => (await counts(accountId)).total ?? null,
      firstInCreationOrder: (forward: boolean, limit: number) => firstInCreationOrder(accountId, forward, limit),
    }),
  };
}

export type EntityStore<T extends Entity> = ReturnType<typeof entityStore<T>>;

/** Several reads of any kinds in one round trip; null for each one that is absent (or not asked). */
export async function getEach<R extends readonly (Ref<unknown> | null)[]>(
  ...refs: R
): Promise<{ [I in keyof R]: R[I] extends Ref<infer T> | null ? T | null : null }> {
  const asked = refs.filter((ref): ref is Ref<unknown> => ref !== null);
  const found = await batchGet(asked.map((ref) => ref.key));
  return refs.map((ref) => {
    const stored = ref ? found.get(keyString(ref.key)) : undefined;
    return ref && stored ? ref.decode(stored) : null;
  }) as { [I in keyof R]: R[I] extends Ref<infer T> | null ? T | null : null };
}

/** Which of the (kind, id) pairs name an object of the account: one round trip per 100. */
export async function existing(accountId: string, wanted: readonly (readonly [StoredKind, string])[]): Promise<boolean[]> {
  if (wanted.length === 0) return [];
  const keys = wanted.map(([kind, id]) => entityKey(accountId, typeOf(kind), id));
  const found = await batchGet(keys);
  return keys.map((k) => found.has(keyString(k)));
}
