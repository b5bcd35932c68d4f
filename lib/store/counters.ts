// Per-account counters: exact list totals (so total_count never needs a full read) and tiny ids.
// Counters are updated with atomic ADD right after the write they count; one item per account and
// entity type holds all of that type's counts, so one read answers any of them.
// An ADD is not idempotent, and the SDK retries a write whose answer was lost (a timeout, a reset
// connection, a 500 after the write applied): every ADD therefore carries a fresh token and keeps
// the last WRITE_TOKENS tokens on the item, and applies only while its own token is not among them.
// A retry of an ADD that applied fails that condition and is taken as done.
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from './commands';
import { db, tableName } from './client';
import type { EntityType } from '../entities';
import { newId } from '../ids';
import { isZeroDelta, scaleDelta, sumDeltas, type CountDelta } from './count-delta';
import { getItem, isConditionFailure } from './items';

/** Tokens of the last writes kept on a counter item: a retry comes back within a second or two, and
 * this many other writes of the same item would have to land in between to make it apply twice. */
const WRITE_TOKENS = 8;
const tokenName = (i: number) => `_w${i}`;
const resultName = (i: number) => `_r${i}`;

/**
 * The parts of an UpdateItem that keep the last tokens (`_w0` newest … `_w7`) and, when asked, a
 * result beside each (`_r0` … : the value an expression gave for that write), and apply only while
 * `token` is not among them. Every right-hand side reads the item as it was before the update, so
 * the shift is one write.
 */
function tokenShift(token: string, result?: string) {
  const names: Record<string, string> = {};
  const sets: string[] = [];
  const seen: string[] = [];
  for (let i = 0; i < WRITE_TOKENS; i++) {
    names[`#w${i}`] = tokenName(i);
    sets.push(i === 0 ? '#w0 = :token' : `#w${i} = if_not_exists(#w${i - 1}, :none)`);
    seen.push(`#w${i} = :token`);
    if (result !== undefined) {
      names[`#r${i}`] = resultName(i);
      sets.push(i === 0 ? `#r0 = ${result}` : `#r${i} = if_not_exists(#r${i - 1}, :zero)`);
    }
  }
  return { names, sets, condition: `NOT (${seen.join(' OR ')})`, values: { ':token': token, ':none': '-' } };
}

export function countKey(accountId: string, type: EntityType) {
  return { pk: `A#${accountId}#COUNT`, sk: type };
}

/** Adds the deltas (field → ±n) to the account's counts for this type. Zero deltas are skipped. */
export async function adjustCounts(accountId: string, type: EntityType, deltas: Record<string, number>): Promise<void> {
  await adjustFields(countKey(accountId, type), deltas);
}

/** Adds the deltas to the number fields of any counter item (an area's own counters, such as the
 * alerts' created_at buckets). Zero deltas are skipped. */
export async function adjustFields(key: { pk: string; sk: string }, deltas: Record<string, CountDelta>): Promise<void> {
  const entries = Object.entries(deltas).filter(([, n]) => !isZeroDelta(n));
  if (entries.length === 0) return;
  const shift = tokenShift(newId());
  const names: Record<string, string> = { ...shift.names };
  const values: Record<string, unknown> = { ...shift.values };
  const parts = entries.map(([field, n], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = n;
    return `#f${i} :v${i}`;
  });
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `ADD ${parts.join(', ')} SET ${shift.sets.join(', ')}`,
        ConditionExpression: shift.condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    // Our token is on the item: an attempt whose answer was lost applied this ADD already.
    if (!isConditionFailure(error)) throw error;
  }
}

export async function readCounts(accountId: string, type: EntityType): Promise<Record<string, number>> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: countKey(accountId, type), ConsistentRead: true }));
  const item = (out.Item ?? {}) as Record<string, unknown>;
  const counts: Record<string, number> = {};
  for (const [field, value] of Object.entries(item)) {
    if (typeof value === 'number') counts[field] = Math.max(0, value);
  }
  return counts;
}

/** The counts of a type as stored, negative values too (the recount compares them exactly). */
export async function readRawCounts(accountId: string, type: EntityType): Promise<Record<string, number>> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: countKey(accountId, type), ConsistentRead: true }));
  const counts: Record<string, number> = {};
  for (const [field, value] of Object.entries((out.Item ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'number') counts[field] = value;
  }
  return counts;
}

/** The types that have a counter item in the account (one Query of its small COUNT partition). */
export async function listCounterTypes(accountId: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `A#${accountId}#COUNT` },
      ProjectionExpression: 'sk',
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((item) => String(item.sk));
}

/**
 * Corrects counter fields found off by a recount: each field moves by the difference, only while every
 * one of them still holds the value the recount read (a write in between fails the condition, and the
 * correction is left for another time). At most 50 fields per write; false when a condition failed.
 */
export async function correctCounts(
  accountId: string,
  type: EntityType,
  fields: Record<string, { was: number; now: number }>,
): Promise<boolean> {
  return correctFields(countKey(accountId, type), fields);
}

/** correctCounts for any counter item. */
export async function correctFields(
  key: { pk: string; sk: string },
  fields: Record<string, { was: CountDelta; now: CountDelta }>,
): Promise<boolean> {
  const entries = Object.entries(fields);
  for (let start = 0; start < entries.length; start += 50) {
    const names: Record<string, string> = {};
    const values: Record<string, CountDelta> = {};
    const adds: string[] = [];
    const conditions: string[] = [];
    entries.slice(start, start + 50).forEach(([field, { was, now }], i) => {
      names[`#f${i}`] = field;
      values[`:d${i}`] = sumDeltas(now, scaleDelta(was, -1));
      adds.push(`#f${i} :d${i}`);
      if (isZeroDelta(was)) {
        values[`:z${i}`] = 0;
        conditions.push(`(attribute_not_exists(#f${i}) OR #f${i} = :z${i})`);
      } else {
        values[`:w${i}`] = was;
        conditions.push(`#f${i} = :w${i}`);
      }
    });
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `ADD ${adds.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
  return true;
}

/** Overwrites the counts of a type (used by the recount command after a crash between two writes). */
export async function setCounts(accountId: string, type: EntityType, counts: Record<string, number>): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...countKey(accountId, type), ...counts } }));
}

/** Reserves `count` tiny ids of a type and returns the last of them (the first is last − count + 1).
 * Callers go through nextTinyId (lib/store/grouped-writes.ts), which shares one reservation among
 * concurrent creates. */
/** A reservation's token that names the one object taking the number: `@<object id>.<nonce>`. */
const NAMED_TOKEN = '@';

/**
 * What the account's tiny-id item of a type says about `tinyId`, in one strongly consistent read: the
 * last number handed out (0 before the first) and, when one of its last reservations (8) was of this
 * number alone for a named object, that object's id.
 */
export async function recentTinyIdHolder(
  accountId: string,
  type: EntityType,
  tinyId: number,
): Promise<{ last: number; holder: string | null }> {
  const item = await getItem({ pk: `A#${accountId}#TINY`, sk: type });
  let holder: string | null = null;
  for (let i = 0; i < WRITE_TOKENS && holder === null; i++) {
    const token = item?.[tokenName(i)];
    if (Number(item?.[resultName(i)]) === tinyId && typeof token === 'string' && token.startsWith(NAMED_TOKEN))
      holder = token.slice(NAMED_TOKEN.length, token.lastIndexOf('.'));
  }
  return { last: Number(item?.n ?? 0), holder };
}

/** Reserves `count` tiny ids, returns the last. `objectId`: the one object taking a block of one, named
 * in the reservation's token then (`@<object id>.<this call's nonce>`: still one call's own, as a token
 * must be, for two calls creating one object never share a number; recentTinyIdHolder reads it). */
export async function reserveTinyIds(accountId: string, type: EntityType, count: number, objectId?: string): Promise<number> {
  const key = { pk: `A#${accountId}#TINY`, sk: type };
  const token = count === 1 && objectId !== undefined ? `${NAMED_TOKEN}${objectId}.${newId().slice(-10)}` : newId();
  // Each reservation keeps what it reserved beside its token: a retry of one whose answer was lost
  // reads it back instead of reserving a second block (tiny ids have no gaps).
  const shift = tokenShift(token, 'if_not_exists(#n, :zero) + :count');
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET #n = if_not_exists(#n, :zero) + :count, ${shift.sets.join(', ')}`,
        ConditionExpression: shift.condition,
        ExpressionAttributeNames: { '#n': 'n', ...shift.names },
        ExpressionAttributeValues: { ':count': count, ':zero': 0, ...shift.values },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.n);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const item = await getItem(key);
    for (let i = 0; i < WRITE_TOKENS; i++) if (item?.[tokenName(i)] === token) return Number(item[resultName(i)]);
    throw new Error(`tiny ids of ${type}: the reservation ${token} applied but is no longer on the item`, { cause: error });
  }
}

// ── per-owner counters ─────────────────────────────────────────────────────────────────────────
// How many records of a type one owner has (an object's logs, an alert's or a person's
// notifications): one small item per owner, all of an account's owners of a type in one partition
// (the recount reads them back with one paged Query). Never fields of the COUNT item above: that
// item would grow with every alert the account ever had.
//   owner count   A#<acc>#OCOUNT#<TYPE> / <owner key>   n

const ownerCountPartition = (accountId: string, type: EntityType) => `A#${accountId}#OCOUNT#${type}`;

export function ownerCountKey(accountId: string, type: EntityType, owner: string) {
  return { pk: ownerCountPartition(accountId, type), sk: owner };
}

/** Adds `n` (±) to several owners' counts of a type, one UpdateItem each, in parallel. */
export async function adjustOwnerCounts(accountId: string, type: EntityType, deltas: Record<string, number>): Promise<void> {
  await Promise.all(Object.entries(deltas).map(([owner, n]) => adjustFields(ownerCountKey(accountId, type, owner), { n })));
}

/** One owner's count of a type; null when no write ever counted one (no item). */
export async function readOwnerCount(accountId: string, type: EntityType, owner: string): Promise<number | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: ownerCountKey(accountId, type, owner), ConsistentRead: true }));
  const n: unknown = out.Item?.n;
  return typeof n === 'number' ? Math.max(0, n) : null;
}

/** Every owner count of a type in the account, as stored (negative values too): for the recount. */
export async function readAllOwnerCounts(accountId: string, type: EntityType): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': ownerCountPartition(accountId, type) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) if (typeof item.n === 'number') counts[String(item.sk)] = item.n;
    startKey = out.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (startKey);
  return counts;
}

/**
 * Corrects owner counts found off by a recount, each by the difference and only while it still holds
 * the value read (correctFields on the owner's item). Returns how many corrections a concurrent write
 * made fail.
 */
export async function correctOwnerCounts(
  accountId: string,
  type: EntityType,
  owners: Record<string, { was: number; now: number }>,
): Promise<number> {
  let failed = 0;
  const entries = Object.entries(owners);
  for (let start = 0; start < entries.length; start += 25) {
    const done = await Promise.all(
      entries.slice(start, start + 25).map(([owner, change]) => correctFields(ownerCountKey(accountId, type, owner), { n: change })),
    );
    failed += done.filter((ok) => !ok).length;
  }
  return failed;
}
