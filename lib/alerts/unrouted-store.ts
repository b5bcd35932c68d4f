// The sparse index of alerts not yet routed (lib/alerts/ACCESS-PATTERNS.md): one small item per new
// alert, written before the alert itself and removed by the routing step that marks it routed, so an
// alert whose routing message was lost (a crash between the write and the send, a queue that died with
// the local process) is still found and re-driven (lib/alerts/sweep-unrouted.ts).
//   unrouted   ROUTING#UNROUTED#<shard 0..7> / <alert ULID>#<account id>   {account_id, alert_id, due_at, resends}
// Sorted by the alert's ULID, which starts with its creation time: "created more than a grace period
// ago" is a key range; `due_at` moves on with every re-drive (backing off).
import { UpdateCommand } from '../store/commands';
import { encodeTime } from 'ulid';
import { db, tableName } from '../store/client';
import { overdue } from '../queues/backlog';
import { deleteIndexItem, putIndexItems } from '../store/grouped-writes';
import { settleUnhurried } from '../group-commit';
import { logger } from '../log';
import { isConditionFailure, queryItems } from '../store/items';

export const UNROUTED_SHARDS = 8;

function shardOf(alertId: string): number {
  let sum = 0;
  for (let i = alertId.length - 6; i < alertId.length; i++) sum += alertId.charCodeAt(i);
  return sum % UNROUTED_SHARDS;
}

const partition = (shard: number) => `ROUTING#UNROUTED#${shard}`;
const key = (accountId: string, alertId: string) => ({ pk: partition(shardOf(alertId)), sk: `${alertId}#${accountId}` });

export interface UnroutedEntry {
  account_id: string;
  alert_id: string;
  /** Not to be re-driven before this time (epoch ms). */
  due_at: number;
  resends: number;
}

/** Notes a new alert as not yet routed, due for a re-drive at `dueAt` if routing has not removed it. */
export async function markUnrouted(accountId: string, alertId: string, dueAt: number): Promise<void> {
  // Grouped with the index items of new objects: the create's word items, put in the same turn, and
  // concurrent creates' share its BatchWrite; each still waits until its entry is stored.
  await putIndexItems([{ ...key(accountId, alertId), account_id: accountId, alert_id: alertId, due_at: dueAt, resends: 0 }]);
}

/**
 * Routing is done: the alert leaves the index (idempotent; concurrent routings' share a BatchWrite).
 * Nothing waits for it but the end of the routing, which has paged: unhurried (lib/group-commit.ts).
 * Should the process stop first, the sweeper re-drives the alert and routing finds it routed.
 */
export async function clearUnrouted(accountId: string, alertId: string): Promise<void> {
  await settleUnhurried([deleteIndexItem(key(accountId, alertId), { unhurried: true })], (error) =>
    logger.warn('routing: an unrouted entry was not removed; the sweeper finds the alert routed', { alertId, error: error as Error }),
  );
}

/**
 * Entries of alerts created before `createdBefore` whose due time has passed, from every shard (at most
 * `limitPerShard` each, oldest first).
 */
export async function listDueUnrouted(createdBefore: number, now: number, limitPerShard: number): Promise<UnroutedEntry[]> {
  const bound = encodeTime(Math.max(0, createdBefore), 10);
  const shards = await Promise.all(
    Array.from({ length: UNROUTED_SHARDS }, (_, shard) => queryItems(partition(shard), { skBetween: ['0', bound], limit: limitPerShard })),
  );
  return shards
    .flat()
    .map((item) => ({
      account_id: String(item.account_id),
      alert_id: String(item.alert_id),
      due_at: Number(item.due_at),
      resends: Number(item.resends ?? 0),
    }))
    .filter((entry) => entry.due_at <= now);
}

/** An alert's routing message was not sent: its entry is due for a re-drive even behind a backed-up
 * routing queue (lib/queues/backlog.ts), once its grace period is over. A no-op once routing removed it. */
export async function markUnroutedOverdue(accountId: string, alertId: string, now: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(accountId, alertId),
        UpdateExpression: 'SET due_at = :due',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':due': overdue(now) },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Claims an entry for one re-drive: moves its due time to `nextDueAt` unless someone claimed or cleared
 * it meanwhile. False when it is gone or was claimed. */
export async function claimUnrouted(entry: UnroutedEntry, nextDueAt: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(entry.account_id, entry.alert_id),
        UpdateExpression: 'SET due_at = :next, resends = resends + :one',
        ConditionExpression: 'due_at = :seen',
        ExpressionAttributeValues: { ':next': nextDueAt, ':seen': entry.due_at, ':one': 1 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
