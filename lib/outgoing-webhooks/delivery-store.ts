// Data access for outgoing webhook deliveries (lib/outgoing-webhooks/ACCESS-PATTERNS.md).
//   delivery   A#<acc>#WHD / <delivery id>
//              gsi2: WEBHOOK#PENDING#<shard 0..7> / <due ISO>#<acc>#<id>   (sparse: only while pending)
// Every change is conditional on the delivery still being pending at the number of tries read, so a
// queue message delivered twice, or a sweeper re-drive racing a delayed message, never sends a try twice.
import { UpdateCommand } from '../store/commands';
import { newId } from '../ids';
import { db, tableName } from '../store/client';
import { fromItem, getItem, isConditionFailure, putNew, queryItems, type Item } from '../store/items';
import type { DeliveryRecord, DeliveryStatus } from './records';

export const PENDING_SHARDS = 8;

const key = (accountId: string, id: string) => ({ pk: `A#${accountId}#WHD`, sk: id });

function shardOf(id: string): number {
  let sum = 0;
  for (let i = id.length - 6; i < id.length; i++) sum += id.charCodeAt(i);
  return sum % PENDING_SHARDS;
}

const pendingPartition = (shard: number) => `WEBHOOK#PENDING#${shard}`;
const pendingSort = (d: Pick<DeliveryRecord, 'account_id' | 'id'>, dueAt: number) =>
  `${new Date(dueAt).toISOString()}#${d.account_id}#${d.id}`;

/** The call that claimed the delivery's last try (claimTry); not part of the record. */
const CLAIM = 'claim';

function decode(item: Item): DeliveryRecord {
  const {
    gsi2pk: _pk,
    gsi2sk: _sk,
    [CLAIM]: _claim,
    ...rest
  } = fromItem<DeliveryRecord & { gsi2pk?: string; gsi2sk?: string; [CLAIM]?: string }>(item);
  return rest;
}

/** Stores a new pending delivery; false when one with that id exists (a redelivered event). */
export async function insertDelivery(d: DeliveryRecord): Promise<boolean> {
  return putNew({ ...key(d.account_id, d.id), gsi2pk: pendingPartition(shardOf(d.id)), gsi2sk: pendingSort(d, d.due_at), ...d });
}

export async function getDelivery(accountId: string, id: string): Promise<DeliveryRecord | null> {
  const item = await getItem(key(accountId, id));
  return item ? decode(item) : null;
}

async function update(
  d: DeliveryRecord,
  expression: string,
  values: Record<string, unknown>,
  names: Record<string, string> = {},
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(d.account_id, d.id),
        UpdateExpression: expression,
        ConditionExpression: '#status = :pending AND attempts = :seen',
        ExpressionAttributeNames: { '#status': 'status', ...names },
        ExpressionAttributeValues: { ':pending': 'pending', ':seen': d.attempts, ...values },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Starts try number attempts + 1: only one caller wins it. Until `lostAt` it is in flight. The claim
 * carries an id of this call: a claim whose answer was lost (the SDK retried it, and the retry found
 * attempts moved) is recognised as this caller's, so the try is made now, not only once the sweeper
 * finds it in flight too long.
 */
export async function claimTry(d: DeliveryRecord, lostAt: number, now: string): Promise<boolean> {
  const claim = newId();
  const won = await update(
    d,
    'SET attempts = :next, due_at = :due, gsi2sk = :sort, updated_at = :now, #claim = :claim',
    {
      ':next': d.attempts + 1,
      ':due': lostAt,
      ':sort': pendingSort(d, lostAt),
      ':now': now,
      ':claim': claim,
    },
    { '#claim': CLAIM },
  );
  return won || (await getItem(key(d.account_id, d.id)))?.[CLAIM] === claim;
}

/** After a failed try (d.attempts is the try just made): the next one is due at `dueAt`. */
export function scheduleRetry(d: DeliveryRecord, dueAt: number, last: { status: number | null; error: string | null }, now: string) {
  return update(d, 'SET due_at = :due, gsi2sk = :sort, last_status = :last, last_error = :error, updated_at = :now', {
    ':due': dueAt,
    ':sort': pendingSort(d, dueAt),
    ':last': last.status,
    ':error': last.error,
    ':now': now,
  });
}

/** The delivery is over (delivered, failed for good, cancelled): it leaves the pending index. */
export function finishDelivery(
  d: DeliveryRecord,
  status: Exclude<DeliveryStatus, 'pending'>,
  last: { status: number | null; error: string | null },
  now: string,
) {
  return update(d, 'SET #status = :final, last_status = :last, last_error = :error, updated_at = :now REMOVE gsi2pk, gsi2sk', {
    ':final': status,
    ':last': last.status,
    ':error': last.error,
    ':now': now,
  });
}

/** Pending deliveries due at or before `upTo`, from every shard (the sweeper). */
export async function listDueDeliveries(upTo: number, limitPerShard: number): Promise<DeliveryRecord[]> {
  const bound = `${new Date(upTo).toISOString()}~`;
  const shards = await Promise.all(
    Array.from({ length: PENDING_SHARDS }, (_, shard) =>
      queryItems(pendingPartition(shard), { index: 'gsi2', skBetween: ['0', bound], limit: limitPerShard }),
    ),
  );
  return shards.flat().map(decode);
}
