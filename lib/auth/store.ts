// The auth area's own items:
//   signing secret   SYSTEM / JWT_SECRET                    login tokens' secret when JWT_SECRET is unset
//   sealing key      SYSTEM / SECRETS_KEY                   key of secrets stored encrypted when SECRETS_KEY is unset
//   attempt counter  LIMIT#<bucket> / <window start (s)>   {n}, expires with TTL after its window
import { UpdateCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { getItem, isConditionFailure, putNew } from '../store/items';
import { TTL_ATTRIBUTE } from '../store/table';

const SECRET_KEY = { pk: 'SYSTEM', sk: 'JWT_SECRET' };

export async function getStoredJwtSecret(): Promise<string | null> {
  const stored = await getItem(SECRET_KEY);
  return stored ? String(stored.secret) : null;
}

/** Keeps `secret` unless another process stored one first; false then. */
export async function insertJwtSecret(secret: string): Promise<boolean> {
  return putNew({ ...SECRET_KEY, secret });
}

const SEALING_KEY = { pk: 'SYSTEM', sk: 'SECRETS_KEY' };

export async function getStoredSealingKey(): Promise<string | null> {
  const stored = await getItem(SEALING_KEY);
  return stored ? String(stored.key) : null;
}

/** Keeps `key` unless another process stored one first; false then. */
export async function insertSealingKey(key: string): Promise<boolean> {
  return putNew({ ...SEALING_KEY, key });
}

/** Counts one attempt in a bucket's window while it stays within `limit`; false when it is used up. */
export async function addAttempt(bucket: string, windowStart: number, windowSeconds: number, limit: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `LIMIT#${bucket}`, sk: String(windowStart) },
        UpdateExpression: 'ADD #n :one SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { '#n': 'n', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ttl': windowStart + windowSeconds + 60 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
