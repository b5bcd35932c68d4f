// Data access for logs.
//   log              A#<acc>#LOG / <id>
//   by owner         gsi1: A#<acc>#LOG#O#<owner prefix id> / <id>   (a timeline, oldest first)
// Further indexes (gsi2, gsi3) are free for the webhook pipeline (e.g. a sparse pending index).
import { ENTITY_TYPES } from '../store/items';
import { insertEntity, loadEntity, saveEntity, type WriteOptions } from '../store/entities';
import { fromItem, queryItems } from '../store/items';
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
