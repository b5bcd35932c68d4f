// Data access for logs (lib/alerts/ACCESS-PATTERNS.md, lib/integrations/ACCESS-PATTERNS.md).
//   log              A#<acc>#LOG / <id>
//   by owner         gsi1: A#<acc>#LOG#O#<owner prefix id> / <id>   (a timeline, oldest first)
//   packed entries   one item at the first entry's id holding an escalation step's (or a routing's) timeline entries,
//                    whose ids follow it one by one (packed.ts): read where it stands, unpacked
//   pending webhooks gsi2: INGEST#PENDING#<shard 0..7> / <due ISO>#<log id>   (sparse: only while
//                    pending; sharded so no index partition runs hot)
// Alert timeline entries are counted in the alert counter item as `timeline_logs` (TIMELINE_COUNT),
// so a transition raises its status counters and its log's count in ONE update; a routing or an
// escalation step, which moves no status, puts its entries' count in the notifications' counter
// item with its pages instead (a field spread over both: lib/store/spread-fields.ts). The log total
// is the LOG counter plus both.
import { UpdateCommand } from '../store/commands';
import { typeOf } from '../entities';
import { db, tableName } from '../store/client';
import { adjustCounts, adjustOwnerCounts, readCounts } from '../store/counters';
import { entityStore } from '../store/entity-store';
import { registerSpreadField } from '../store/spread-fields';
import { addCounts, putGrouped } from '../store/grouped-writes';
import { newId } from '../ids';
import {
  batchWrite,
  checkItemSize,
  countItems,
  fromItem,
  getItem,
  isConditionFailure,
  ItemTooLarge,
  putNew,
  queryItems,
  type Item,
} from '../store/items';
import type { IngestResult, IngestStatus, LogRecord } from './records';
import { entriesIn, isPacked, PACK_ATTRIBUTE, packEntries, unpackEntries } from './packed';
import { nowIso } from '../clock';

const ownerPartition = (accountId: string, ownerPrefixId: string) => `A#${accountId}#LOG#O#${ownerPrefixId}`;

/** An alert's timeline entry (lib/alerts/timeline.ts), counted in the alert counters: a log of type
 * `alert` that an alert owns and that no person wrote through POST /log. */
const isTimelineEntry = (log: LogRecord) => log.type === 'alert' && log.owner_id.startsWith('alt_') && !('created_by' in (log.data ?? {}));

/**
 * Owners whose logs are counted per owner: every kind but alerts. An alert's timeline is short (its
 * routing, pages and transitions: tens of entries), so its total is a COUNT of its own partition, and
 * a transition (the acknowledgement people wait on) writes no extra counter for its timeline entry.
 */
const countedByOwner = (ownerPrefixId: string) => !ownerPrefixId.startsWith('alt_');

/** The call that wrote a timeline entry with a chosen id (insertTimelineLog); not part of the record. */
const CALL_ATTRIBUTE = '_call';

const ACCOUNT_OF_PARTITION = /^A#(.+)#LOG$/;

/** The entries of a packed item: its account and owner are those of its keys. */
function entriesOfPack(item: Item): LogRecord[] {
  const accountId = ACCOUNT_OF_PARTITION.exec(String(item.pk))?.[1] ?? '';
  const ownerId = String(item.gsi1pk).slice(ownerPartition(accountId, '').length);
  return unpackEntries(item, { accountId, ownerId, baseId: String(item.sk) });
}

function decodeSingle(item: Item): LogRecord {
  const { [CALL_ATTRIBUTE]: _call, ...log } = fromItem<LogRecord & Record<string, unknown>>(item);
  return log;
}

const logs = entityStore<LogRecord>({
  kind: 'log',
  // A read by key of a packed item finds its first entry (getLog finds the others).
  decode: (item) => (isPacked(item) ? entriesOfPack(item)[0] : decodeSingle(item)),
  unpack: (item) => (isPacked(item) ? entriesOfPack(item) : [decodeSingle(item)]),
  indexKeys: (log) => ({ gsi1pk: ownerPartition(log.account_id, log.owner_id), gsi1sk: log.id }),
  countedAs: (log) => (isTimelineEntry(log) ? [[typeOf('alert'), 'timeline_logs']] : [[typeOf('log'), 'total']]),
  countsInto: [typeOf('log'), typeOf('alert')],
  owners: (log) => (countedByOwner(log.owner_id) ? [log.owner_id] : []),
});

// Held-back counts (a routing's, an escalation step's) put it in the notifications' counter item
// when they write that one and not the alert's (lib/store/spread-fields.ts).
registerSpreadField(typeOf('alert'), 'timeline_logs', [typeOf('notification')]);

/** The counter delta of one alert timeline entry, for a caller that adds it to its own alert counter update. */
export const TIMELINE_COUNT = { timeline_logs: 1 } as const;

/** The counter delta of `entries` alert timeline entries (a pack's, routing's hops and outcome, an import's). */
export function timelineEntriesCount(entries: number): Record<string, number> {
  return Object.fromEntries(Object.entries(TIMELINE_COUNT).map(([field, n]) => [field, n * entries]));
}
const countTimelineLog = (accountId: string) => addCounts(accountId, typeOf('alert'), TIMELINE_COUNT);

/**
 * A log by id: its item, or the entry of a packed item it belongs to (a second entry's id is no key:
 * the item before it, one Query of `sk <= id`, limit 1, holds it when anything does).
 */
export async function getLog(accountId: string, id: string): Promise<LogRecord | null> {
  const found = await logs.get(accountId, id);
  if (found) return found;
  const [before] = await queryItems(logs.partition(accountId), { skBetween: ['0', id], forward: false, limit: 1 });
  if (!before || !isPacked(before)) return null;
  return entriesOfPack(before).find((log) => log.id === id) ?? null;
}
/** For reads combined into one round trip (lib/store/entity-store.ts getEach). */
export const logRef = logs.ref;

/**
 * Stores a new log whose id was just generated (never a retry's id): the item and its counter are
 * written in parallel, so the write adds one round trip of depth, not two.
 */
export async function insertNewLog(log: LogRecord): Promise<void> {
  await Promise.all([putNew(logs.item(log)), adjustCounts(log.account_id, logs.type, { total: 1 }), logs.countOwners(log, 1)]);
}

/**
 * An alert timeline entry whose id cannot exist yet (a new ULID, or one a write that just succeeded
 * named): the put needs no condition and may share a BatchWrite. `counted`: the caller counts it in
 * the alert counters (its owner count, the alert's, is always added here).
 */
export async function insertFreshTimelineLog(log: LogRecord, counted: boolean): Promise<void> {
  await Promise.all([putGrouped(logs.item(log)), counted ? undefined : countTimelineLog(log.account_id), logs.countOwners(log, 1)]);
}

/**
 * An alert timeline entry with a chosen id: written and counted once; false when it exists already.
 * A chosen id is written again by design (a redelivery, an outbox carried out twice), so a failed
 * condition alone cannot tell a lost answer from an earlier writer: the item carries the id of this
 * call (`_call`), and an entry that holds it is this write, whose answer was lost.
 */
export async function insertTimelineLog(log: LogRecord, counted: boolean): Promise<boolean> {
  const call = newId();
  if (
    !(await putNew({ ...logs.item(log), [CALL_ATTRIBUTE]: call })) &&
    (await getItem(logs.key(log.account_id, log.id)))?.[CALL_ATTRIBUTE] !== call
  )
    return false;
  await Promise.all([counted ? undefined : countTimelineLog(log.account_id), logs.countOwners(log, 1)]);
  return true;
}

/**
 * Alert timeline entries of one step as ONE item (packed.ts; their ids consecutive from the first),
 * written once: a conditional put carrying this call's id, as insertTimelineLog. `inserted`: this
 * call wrote it (and counted every entry, unless `counted`: the caller counts them); `exists`: a pack
 * was there already; `single`: an entry written alone holds the first id (an outbox carried out again
 * by a version that did not pack): the caller writes the others alone too; `too-large`: together they
 * pass the item limit (nothing written: the caller writes them alone). `fresh`: no earlier attempt can
 * have written the pack (the write that chose its ids succeeded just now, as insertFreshTimelineLog):
 * an unconditional put that may share a BatchWrite. Throws when the entries cannot share an item
 * (packEntries, which the caller asks first).
 */
export async function insertTimelinePack(
  entries: readonly LogRecord[],
  counted: boolean,
  fresh = false,
): Promise<'inserted' | 'exists' | 'single' | 'too-large'> {
  const packed = packEntries(entries);
  if (!packed) throw new Error('insertTimelinePack: these entries cannot share an item');
  const [first] = entries;
  const call = newId();
  const { pk, sk, gsi1pk, gsi1sk } = logs.item(first);
  const item: Item = { pk, sk, gsi1pk, gsi1sk, ...packed, ...(fresh ? {} : { [CALL_ATTRIBUTE]: call }) };
  try {
    checkItemSize(item);
  } catch (error) {
    if (error instanceof ItemTooLarge) return 'too-large';
    throw error;
  }
  if (fresh) await putGrouped(item);
  else if (!(await putNew(item))) {
    const stored = await getItem(logs.key(first.account_id, first.id));
    if (!stored) return 'exists';
    if (!(PACK_ATTRIBUTE in stored)) return 'single';
    if (stored[CALL_ATTRIBUTE] !== call) return 'exists';
  }
  await Promise.all([
    counted ? undefined : addCounts(first.account_id, typeOf('alert'), timelineEntriesCount(entries.length)),
    ...entries.map((log) => logs.countOwners(log, 1)),
  ]);
  return 'inserted';
}

/**
 * Writes many new logs of one account at once (seeding, imports): BatchWrites, then the LOG total,
 * the alert counters' timeline count and every owner count, each summed into one ADD.
 */
export async function importLogs(accountId: string, records: LogRecord[]): Promise<void> {
  const owners: Record<string, number> = {};
  let timeline = 0;
  for (const log of records) {
    if (log.account_id !== accountId) throw new Error('importLogs: a log of another account');
    if (isTimelineEntry(log)) timeline++;
    if (countedByOwner(log.owner_id)) owners[log.owner_id] = (owners[log.owner_id] ?? 0) + 1;
  }
  for (const log of records) checkItemSize(logs.item(log));
  await batchWrite(records.map((log) => ({ PutRequest: { Item: logs.item(log) } })));
  await Promise.all([
    adjustCounts(accountId, logs.type, { total: records.length - timeline }),
    adjustCounts(accountId, typeOf('alert'), timelineEntriesCount(timeline)),
    adjustOwnerCounts(accountId, logs.type, owners),
  ]);
}

/** Every log of the account: the LOG counter plus the alert timeline entries (counted in two items). */
export async function countAllLogs(accountId: string): Promise<number> {
  const [counts, alerts, pages] = await Promise.all([
    logs.counts(accountId),
    readCounts(accountId, typeOf('alert')),
    readCounts(accountId, typeOf('notification')),
  ]);
  return (counts.total ?? 0) + (alerts.timeline_logs ?? 0) + (pages.timeline_logs ?? 0);
}

/** The account's logs in id order: a page (limit) or all of them. */
export const listLogs = logs.list;

/** The logs an object owns in id order (oldest first when forward); `limit` bounds a page. */
export async function listLogsOfOwner(
  accountId: string,
  ownerPrefixId: string,
  range: { forward?: boolean; limit?: number } = {},
): Promise<LogRecord[]> {
  return logs.query(ownerPartition(accountId, ownerPrefixId), { index: 'gsi1', forward: range.forward ?? true, limit: range.limit });
}

/**
 * How many logs an object owns: its owner count (one GetItem). An alert's timeline, and an owner
 * without a count (no log written since owner counts exist: empty for a new object; logs stored
 * before them are counted once `npm run admin -- recount` has written their counts), is counted from
 * its index partition instead.
 */
export async function countLogsOfOwner(accountId: string, ownerPrefixId: string): Promise<number> {
  const counted = countedByOwner(ownerPrefixId) ? await logs.ownerCount(accountId, ownerPrefixId) : null;
  if (counted !== null) return counted;
  if (!ownerPrefixId.startsWith('alt_')) return countItems(ownerPartition(accountId, ownerPrefixId), { index: 'gsi1' });
  // An alert's timeline may hold packed items: its entries are counted, each item read for its pack
  // alone (the same read units as a COUNT: both pay for the items read).
  const items = await queryItems(ownerPartition(accountId, ownerPrefixId), { index: 'gsi1', project: ['sk', PACK_ATTRIBUTE] });
  return items.reduce((sum, item) => sum + entriesIn(item), 0);
}

// ── inbound webhook logs and the pending index ─────────────────────────────────────────────────

export const PENDING_SHARDS = 8;

function shardOf(logId: string): number {
  let sum = 0;
  for (let i = logId.length - 6; i < logId.length; i++) sum += logId.charCodeAt(i);
  return sum % PENDING_SHARDS;
}

const pendingPartition = (shard: number) => `INGEST#PENDING#${shard}`;

function pendingIndexKeys(logId: string, dueAt: number) {
  return { gsi2pk: pendingPartition(shardOf(logId)), gsi2sk: `${new Date(dueAt).toISOString()}#${logId}` };
}

/**
 * Stores an inbound request's log (a fresh id) through the grouped puts and counts it in the LOG
 * total and its integration's owner count (both group-committed: a storm into one integration sums
 * into few ADDs); with `pendingDueAt` it enters the pending index, due for the sweeper at that time.
 */
export async function insertIncomingLog(log: LogRecord, pendingDueAt: number | null): Promise<void> {
  await putGrouped({ ...logs.item(log), ...(pendingDueAt === null ? {} : pendingIndexKeys(log.id, pendingDueAt)) });
  await Promise.all([addCounts(log.account_id, logs.type, { total: 1 }), logs.countOwners(log, 1)]);
}

/** Rewrites a whole log (no condition) through the grouped puts: it leaves the pending index. */
export async function overwriteLog(log: LogRecord): Promise<void> {
  await putGrouped(logs.item(log));
}

/**
 * Records a log's processing outcome and leaves the pending index — only if the log is still in the
 * status `was` (a concurrent worker that finished first wins). False when the log had moved on.
 */
export async function saveLogOutcome(
  log: LogRecord,
  was: IngestStatus,
  outcome: {
    status: Exclude<IngestStatus, 'pending'>;
    reason: string | null;
    result: IngestResult;
    /** Fields of `data` set beside the result. */
    data?: Record<string, unknown>;
  },
): Promise<boolean> {
  const extra = Object.entries(outcome.data ?? {});
  const extraSets = extra.map((_, i) => `, #data.#x${i} = :x${i}`).join('');
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: logs.key(log.account_id, log.id),
        UpdateExpression:
          `SET #status = :status, #reason = :reason, #data.#result = :result${extraSets}, updated_at = :now, #version = #version + :one ` +
          'REMOVE gsi2pk, gsi2sk',
        ConditionExpression: 'attribute_exists(pk) AND #status = :was',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#reason': 'reason',
          '#data': 'data',
          '#result': 'result',
          '#version': 'version',
          ...Object.fromEntries(extra.map(([name], i) => [`#x${i}`, name])),
        },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':reason': outcome.reason,
          ':result': outcome.result,
          ':now': nowIso(),
          ':one': 1,
          ':was': was,
          ...Object.fromEntries(extra.map(([, value], i) => [`:x${i}`, value])),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export interface DueLog<L extends LogRecord = LogRecord> {
  log: L;
  /** Its sort key in the pending index: a re-send claim is conditional on it. */
  dueKey: string;
}

/** Pending logs whose due time has passed, oldest first, from every shard. */
export async function listDuePendingLogs(now: number, limitPerShard: number): Promise<DueLog[]> {
  const upTo = `${new Date(now).toISOString()}~`;
  const shards = await Promise.all(
    Array.from({ length: PENDING_SHARDS }, (_, shard) =>
      queryItems(pendingPartition(shard), { index: 'gsi2', skBetween: ['0', upTo], limit: limitPerShard }),
    ),
  );
  return shards.flat().map((item) => ({ log: fromItem<LogRecord>(item), dueKey: String(item.gsi2sk) }));
}

/**
 * Claims a due pending log for one re-send: moves its due time to `nextDueAt` if it is still
 * pending and nobody claimed it meanwhile. False when it was processed or claimed.
 */
export async function claimPendingLog({ log, dueKey }: DueLog, nextDueAt: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: logs.key(log.account_id, log.id),
        UpdateExpression: 'SET gsi2sk = :next, resends = if_not_exists(resends, :zero) + :one',
        ConditionExpression: '#status = :pending AND gsi2sk = :current',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':next': pendingIndexKeys(log.id, nextDueAt).gsi2sk,
          ':current': dueKey,
          ':zero': 0,
          ':one': 1,
          ':pending': 'pending',
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Makes a pending log due at `dueAt` (its queue send failed: nothing else would queue it); a no-op once it left pending. */
export async function markPendingLogDue(log: LogRecord, dueAt: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: logs.key(log.account_id, log.id),
        UpdateExpression: 'SET gsi2sk = :due',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':due': pendingIndexKeys(log.id, dueAt).gsi2sk, ':pending': 'pending' },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
