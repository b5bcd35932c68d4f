// Data access for logs.
//   log              A#<acc>#LOG / <id>
//   by owner         gsi1: A#<acc>#LOG#O#<owner prefix id> / <id>   (a timeline, oldest first)
// Further indexes (gsi2, gsi3) are free for the webhook pipeline (e.g. a sparse pending index).
import { adjustCounts, readCounts } from '../store/counters';
import { insertEntity, loadEntity, saveEntity, type WriteOptions } from '../store/entities';
import { ENTITY_TYPES, countItems, entityKey, fromItem, putNew, queryItems } from '../store/items';
import type { LogRecord } from './records';

const TYPE = ENTITY_TYPES.log;

export function ownerPartition(accountId: string, ownerPrefixId: string): string {
  return `A#${accountId}#LOG#O#${ownerPrefixId}`;
}

function indexKeys(log: LogRecord, extra: WriteOptions['indexKeys'] = {}): WriteOptions['indexKeys'] {
  return { gsi1pk: ownerPartition(log.account_id, log.owner_id), gsi1sk: log.id, ...extra };
}

/** Stores a new log. `extraIndexKeys` may set gsi2/gsi3 keys (e.g. the pending-webhook index). */
export async function insertLog(log: LogRecord, extraIndexKeys?: WriteOptions['indexKeys']): Promise<boolean> {
  return insertEntity(TYPE, log, { indexKeys: indexKeys(log, extraIndexKeys) });
}

export async function getLog(accountId: string, id: string): Promise<LogRecord | null> {
  return loadEntity<LogRecord>(accountId, TYPE, id);
}

/** Saves a changed log (version already raised by one); false when another write came first. */
export async function saveLog(log: LogRecord, extraIndexKeys?: WriteOptions['indexKeys']): Promise<boolean> {
  return saveEntity(TYPE, log, { indexKeys: indexKeys(log, extraIndexKeys) });
}

/** The logs an object owns, oldest first. */
export async function logsOfOwner(accountId: string, ownerPrefixId: string): Promise<LogRecord[]> {
  const items = await queryItems(ownerPartition(accountId, ownerPrefixId), { index: 'gsi1', forward: true });
  return items.map((item) => fromItem<LogRecord>(item));
}

/**
 * Stores a new log whose id was just generated (never a retry's id): the item and its counter are
 * written in parallel, so the write adds one round trip of depth, not two.
 */
export async function insertFreshLog(log: LogRecord): Promise<void> {
  await Promise.all([putUncountedLog(log), adjustCounts(log.account_id, TYPE, { total: 1 })]);
}

/**
 * Alert timeline entries are not counted in the LOG counter but in the alert counter item, as
 * `timeline_logs` (TIMELINE_COUNTER): a transition then raises its status counters and its log's
 * count in ONE update. The log total is the sum of both (totalLogCount).
 */
export const TIMELINE_COUNTER = { type: ENTITY_TYPES.alert, field: 'timeline_logs' } as const;

/** The stored item of a log: its keys, its owner index keys and the record. */
export function logItem(log: LogRecord): Record<string, unknown> {
  return { ...entityKey(log.account_id, TYPE, log.id), ...indexKeys(log), ...log };
}

/** Stores a log whose count the caller keeps (see TIMELINE_COUNTER); false when its id exists. */
export async function putUncountedLog(log: LogRecord): Promise<boolean> {
  return putNew(logItem(log));
}

/** Every log of the account: the LOG counter plus the alert timeline entries. */
export async function totalLogCount(accountId: string): Promise<number> {
  const [logs, alerts] = await Promise.all([readCounts(accountId, TYPE), readCounts(accountId, TIMELINE_COUNTER.type)]);
  return (logs.total ?? 0) + (alerts[TIMELINE_COUNTER.field] ?? 0);
}

/** A page of an owner's logs in id order (oldest first when forward) and how many it owns. */
export async function pageOfOwner(
  accountId: string,
  ownerPrefixId: string,
  options: { forward: boolean; limit: number },
): Promise<LogRecord[]> {
  const items = await queryItems(ownerPartition(accountId, ownerPrefixId), {
    index: 'gsi1',
    forward: options.forward,
    limit: options.limit,
  });
  return items.map((item) => fromItem<LogRecord>(item));
}

/** How many logs an object owns; reads the owner's index partition, keys only. */
export async function countOfOwner(accountId: string, ownerPrefixId: string): Promise<number> {
  return countItems(ownerPartition(accountId, ownerPrefixId), { index: 'gsi1' });
}
