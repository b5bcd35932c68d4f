// Data access for the audit trail's reads (lib/store/audit-trail.ts writes it and holds its keys).
// Every filter of the list is one partition read newest first within an id range:
//   no key filter       A#<acc>#AUDIT                   the table partition
//   object_id           gsi1 A#<acc>#AUDIT#O#<id>
//   actor_id            gsi2 A#<acc>#AUDIT#A#<id | system>
//   object_type         gsi3 A#<acc>#AUDIT#T#<type>
//   action              gsi4 A#<acc>#AUDIT#X#<action>   (keys only: the page is read by BatchGet)
//   created_at ranges   the sort key (ULIDs: time first) of whichever partition
import type { AuditEventRecord } from '../store/audit-trail';
import { AUDIT_TYPE, auditPartition, byAction, byActor, byObject, byObjectType } from '../store/audit-keys';
import { readCounts } from '../store/counters';
import { batchGet, countItems, fromItem, getItem, keyString, queryItems, type Item } from '../store/items';
import { registerCountedKind } from '../store/recount';

export type { AuditEventRecord };

const decode = (item: Item) => fromItem<AuditEventRecord>(item);

registerCountedKind({
  type: AUDIT_TYPE,
  partition: auditPartition,
  decode,
  countedAs: () => [[AUDIT_TYPE, 'total']],
  countsInto: [AUDIT_TYPE],
});

export type AuditKey = 'object_id' | 'actor_id' | 'object_type' | 'action';

/** Where the events of one filter value are, in the order a list prefers them (the narrowest first). */
export const AUDIT_KEYS: Record<AuditKey, { index: string; partition: (accountId: string, value: string) => string; keysOnly?: boolean }> =
  {
    object_id: { index: 'gsi1', partition: byObject },
    actor_id: { index: 'gsi2', partition: byActor },
    object_type: { index: 'gsi3', partition: byObjectType },
    action: { index: 'gsi4', partition: byAction, keysOnly: true },
  };

export interface AuditRead {
  accountId: string;
  /** One key filter's partition, or the account's whole trail. */
  by?: { key: AuditKey; value: string };
  /** Event ids (both inclusive) of a created_at range. */
  ids?: [string, string];
  /** Oldest first; newest first by default. */
  forward?: boolean;
}

function partitionOf(read: AuditRead) {
  if (!read.by) return { partition: auditPartition(read.accountId), index: undefined, keysOnly: false };
  const where = AUDIT_KEYS[read.by.key];
  return { partition: where.partition(read.accountId, read.by.value), index: where.index, keysOnly: where.keysOnly ?? false };
}

const ALL_IDS: [string, string] = ['0', '~'];

/** The first `limit` events of a read, in its order. */
export async function readEvents(read: AuditRead, limit: number): Promise<AuditEventRecord[]> {
  const { partition, index, keysOnly } = partitionOf(read);
  const items = await queryItems(partition, { index, skBetween: read.ids ?? ALL_IDS, forward: read.forward ?? false, limit });
  if (!keysOnly) return items.map(decode);
  const found = await batchGet(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
  return items.flatMap((item) => {
    const stored = found.get(keyString({ pk: String(item.pk), sk: String(item.sk) }));
    return stored ? [decode(stored)] : [];
  });
}

/** How many events a read finds: the counter for the whole trail, else a COUNT of the partition's range. */
export async function countEvents(read: AuditRead): Promise<number> {
  if (!read.by && !read.ids) return (await readCounts(read.accountId, AUDIT_TYPE)).total ?? 0;
  const { partition, index } = partitionOf(read);
  return countItems(partition, { index, skBetween: read.ids ?? ALL_IDS });
}

export async function getAuditEvent(accountId: string, id: string): Promise<AuditEventRecord | null> {
  const item = await getItem({ pk: auditPartition(accountId), sk: id });
  return item ? decode(item) : null;
}
