// Counters that can be trusted: every counter item (`A#<acc>#COUNT` / <TYPE>) recomputed from the items
// it counts. A crash between an entity write and its counter ADD leaves a total off for good; this
// finds and repairs it without racing the writes that go on meanwhile:
//   1. read the counters, count the items (paged Queries of the partitions that count into the type);
//   2. wait a moment (an ADD in flight lands), read and count again: both readings must agree, else
//      the partition is busy and is left for another time;
//   3. correct each field that is off with an ADD of the difference, conditional on the field still
//      holding what was read: a write in between makes the correction fail, never go wrong.
// Entity stores register how their records are counted (lib/store/entity-store.ts); the list of stores
// lives with the use cases that recount (lib/counters).
import type { EntityType } from '../entities';
import { correctCounts, correctOwnerCounts, listCounterTypes, readAllOwnerCounts, readRawCounts } from './counters';
import { queryAll, type Item } from './items';
import { spreadFieldsOf, spreadPartsOf } from './spread-fields';

export interface CountedKind {
  /** The type whose partition holds the records. */
  type: EntityType;
  partition(accountId: string): string;
  /** An item as what countedAs reads (entity stores: every record the item holds). */
  decode(item: Item): unknown;
  /** The counters (type, field) one stored item is counted in (a field named twice counts twice). */
  countedAs(record: unknown): Array<[EntityType, string]>;
  /** Every type `countedAs` may name. */
  countsInto: EntityType[];
  /** The counter item the kind was counted in before it moved to another's (left alone: nothing reads it). */
  formerType?: EntityType;
}

/** A kind whose records are also counted per owner (lib/store/counters.ts owner counts). */
export interface OwnerCountedKind {
  /** The type whose partition holds the records; the owner counts are of this type too. */
  type: EntityType;
  partition(accountId: string): string;
  decode(item: Item): unknown;
  /** The owner keys one stored item is counted under (a key named twice counts twice). */
  owners(record: unknown): string[];
}

/** What one recount settles: a counter item (`<TYPE>`), or every owner count of a type (`<TYPE>#OWNER`). */
export type CounterSet = EntityType | `${EntityType}#OWNER`;

const OWNER_SUFFIX = '#OWNER';

const REGISTRY = new Map<EntityType, CountedKind>();
/** Counter items no kind counts in any more (their counts moved to another item). */
const FORMER_TYPES = new Set<EntityType>();
const OWNER_REGISTRY = new Map<EntityType, OwnerCountedKind>();

/** Called by entityStore() for every kind that keeps counters. */
export function registerCountedKind(kind: CountedKind): void {
  REGISTRY.set(kind.type, kind);
  if (kind.formerType) FORMER_TYPES.add(kind.formerType);
}

/**
 * A counter item's fields as the recount compares them (a spread field: the sum of its items; a part
 * of another item's spread field: left out), and the item's own stored value of each spread field.
 */
async function readComparedCounts(
  accountId: string,
  type: EntityType,
): Promise<{ compared: Record<string, number>; own: Record<string, number> }> {
  const spread = spreadFieldsOf(type);
  const others = [...new Set(spread.flatMap(([, alsoIn]) => alsoIn))];
  const [compared, ...otherCounts] = await Promise.all([
    readRawCounts(accountId, type),
    ...others.map((other) => readRawCounts(accountId, other)),
  ]);
  for (const field of spreadPartsOf(type)) delete compared[field];
  const own: Record<string, number> = {};
  for (const [field, alsoIn] of spread) {
    own[field] = compared[field] ?? 0;
    const sum = alsoIn.reduce((total, other) => total + (otherCounts[others.indexOf(other)][field] ?? 0), own[field]);
    if (sum !== 0 || field in compared) compared[field] = sum;
  }
  return { compared, own };
}

/** A counter item's fields as the recount compares them with its items (countFromItems): spread fields summed, parts of another's left out. */
export async function readRecountedCounts(accountId: string, type: EntityType): Promise<Record<string, number>> {
  return (await readComparedCounts(accountId, type)).compared;
}

/** Called by entityStore() for every kind that keeps per-owner counts. */
export function registerOwnerCountedKind(kind: OwnerCountedKind): void {
  OWNER_REGISTRY.set(kind.type, kind);
}

/** Every counter set there is (the types that have counters, and the types counted per owner), in a stable order. */
export function countedTypes(): CounterSet[] {
  const types = [...REGISTRY.values()].flatMap((kind): CounterSet[] => kind.countsInto);
  const owners = [...OWNER_REGISTRY.keys()].map((type): CounterSet => `${type}${OWNER_SUFFIX}` as CounterSet);
  return [...new Set([...types, ...owners])].sort();
}

export class TooLargeToRecount extends Error {
  override name = 'TooLargeToRecount';
}

/** The counters of one type as its items say they should be; throws TooLargeToRecount past `maxItems`. */
export async function countFromItems(accountId: string, type: EntityType, maxItems = Infinity): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let seen = 0;
  for (const kind of REGISTRY.values()) {
    if (!kind.countsInto.includes(type)) continue;
    for await (const item of queryAll(kind.partition(accountId))) {
      if (++seen > maxItems) throw new TooLargeToRecount(`${type} of account ${accountId} has more than ${maxItems} items to count`);
      for (const [counted, field] of kind.countedAs(kind.decode(item))) {
        if (counted === type) counts[field] = (counts[field] ?? 0) + 1;
      }
    }
  }
  return counts;
}

/** Fields whose stored value differs from the counted one (an absent field counts as 0). */
function differences(stored: Record<string, number>, counted: Record<string, number>): Record<string, { was: number; now: number }> {
  const out: Record<string, { was: number; now: number }> = {};
  for (const field of new Set([...Object.keys(stored), ...Object.keys(counted)])) {
    const was = stored[field] ?? 0;
    const now = counted[field] ?? 0;
    if (was !== now) out[field] = { was, now };
  }
  return out;
}

const same = (a: Record<string, number>, b: Record<string, number>) => Object.keys(differences(a, b)).length === 0;

export type RecountStatus = 'exact' | 'repaired' | 'busy' | 'too-large' | 'unknown-type';

export interface RecountResult {
  /** The counter item's type, or the name of an area's own counter items (`ALERT created_at buckets`). */
  type: CounterSet | (string & {});
  status: RecountStatus;
  /** The fields corrected (repaired), or found off (busy: left as they were). */
  corrections: Record<string, { was: number; now: number }>;
}

export interface RecountOptions {
  /** The pause between the two readings (an ADD in flight lands meanwhile). */
  settleMs?: number;
  /** What happens between the two readings instead of the pause (a test makes a write land there). */
  between?: () => Promise<unknown>;
  /** Readings before a busy partition is given up. */
  attempts?: number;
  /** Items one recount may read (the sweeper's budget); beyond it: too-large. */
  maxItems?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every owner count of a type as the records say it should be; throws TooLargeToRecount past `maxItems`. */
async function countOwnersFromItems(accountId: string, kind: OwnerCountedKind, maxItems = Infinity): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let seen = 0;
  for await (const item of queryAll(kind.partition(accountId))) {
    if (++seen > maxItems) throw new TooLargeToRecount(`${kind.type} of account ${accountId} has more than ${maxItems} items to count`);
    for (const owner of kind.owners(kind.decode(item))) counts[owner] = (counts[owner] ?? 0) + 1;
  }
  return counts;
}

/** The owner counts of one type, recounted and repaired the same way as a counter item. */
async function recountOwners(accountId: string, set: CounterSet, kind: OwnerCountedKind, options: RecountOptions): Promise<RecountResult> {
  const pause = options.between ?? (() => sleep(options.settleMs ?? 1_000));
  const read = () => Promise.all([readAllOwnerCounts(accountId, kind.type), countOwnersFromItems(accountId, kind, options.maxItems)]);
  let found: Record<string, { was: number; now: number }> = {};
  try {
    for (let attempt = 0; attempt < (options.attempts ?? 3); attempt++) {
      const [stored, counted] = await read();
      found = differences(stored, counted);
      if (Object.keys(found).length === 0) return { type: set, status: 'exact', corrections: {} };
      await pause();
      const [storedAgain, countedAgain] = await read();
      // Only the owners found off must be still: a storm into another owner does not hold this up.
      const still = (a: Record<string, number>, b: Record<string, number>) => Object.keys(found).every((o) => (a[o] ?? 0) === (b[o] ?? 0));
      if (!still(stored, storedAgain) || !still(counted, countedAgain)) continue;
      if ((await correctOwnerCounts(accountId, kind.type, found)) === 0) return { type: set, status: 'repaired', corrections: found };
    }
  } catch (error) {
    if (error instanceof TooLargeToRecount) return { type: set, status: 'too-large', corrections: {} };
    throw error;
  }
  return { type: set, status: 'busy', corrections: found };
}

/** Recounts one counter item (or a type's owner counts) and repairs what is off (see the top of this file). */
export async function recountCounter(accountId: string, set: CounterSet, options: RecountOptions = {}): Promise<RecountResult> {
  if (!countedTypes().includes(set)) return { type: set, status: 'unknown-type', corrections: {} };
  if (set.endsWith(OWNER_SUFFIX)) {
    return recountOwners(accountId, set, OWNER_REGISTRY.get(set.slice(0, -OWNER_SUFFIX.length) as EntityType)!, options);
  }
  const type = set as EntityType;
  const pause = options.between ?? (() => sleep(options.settleMs ?? 1_000));
  // The stored fields as compared (./spread-fields) and the counted ones, a part of another item's field left out of both.
  const read = async () => {
    const [{ compared, own }, counted] = await Promise.all([
      readComparedCounts(accountId, type),
      countFromItems(accountId, type, options.maxItems),
    ]);
    for (const field of spreadPartsOf(type)) delete counted[field];
    return { stored: compared, own, counted };
  };
  let found: Record<string, { was: number; now: number }> = {};
  try {
    for (let attempt = 0; attempt < (options.attempts ?? 3); attempt++) {
      const { stored, own, counted } = await read();
      found = differences(stored, counted);
      if (Object.keys(found).length === 0) return { type, status: 'exact', corrections: {} };
      await pause();
      const again = await read();
      if (!same(stored, again.stored) || !same(counted, again.counted)) continue;
      // A spread field is corrected in this item alone, by what its sum is off.
      const writes = Object.fromEntries(
        Object.entries(found).map(([field, { was, now }]) => [
          field,
          field in own ? { was: own[field], now: own[field] + now - was } : { was, now },
        ]),
      );
      if (await correctCounts(accountId, type, writes)) return { type, status: 'repaired', corrections: found };
    }
  } catch (error) {
    if (error instanceof TooLargeToRecount) return { type, status: 'too-large', corrections: {} };
    throw error;
  }
  return { type, status: 'busy', corrections: found };
}

/** The types to recount for an account: every counted type, and any other its counter items name
 * (reported as unknown-type: a store that is not registered), but a former one (its counts moved). */
export async function typesToRecount(accountId: string): Promise<CounterSet[]> {
  const stored = (await listCounterTypes(accountId)).filter((type) => !FORMER_TYPES.has(type as EntityType));
  return [...new Set([...countedTypes(), ...stored])].sort() as CounterSet[];
}
