// Data access for the inbound rate limit (lib/integrations/ACCESS-PATTERNS.md, "Rate limit"): one
// token bucket per integration, kept as its theoretical arrival time `tat` (epoch ms), shared by
// every instance. The arithmetic (what `step`, `latest` and `next` are) is ingest/token-bucket.ts's.
//   bucket   INT#<integration>#RATE / BUCKET   {tat, expires_at}   (an absent item is a full bucket)
// Each take is one conditional write that needs no read first and no transaction.
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import { isConditionFailure } from '../store/items';
import { TTL_ATTRIBUTE } from '../store/table';

const bucketKey = (integrationId: string) => ({ pk: `INT#${integrationId}#RATE`, sk: 'BUCKET' });

async function conditionalUpdate(input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> {
  try {
    await db().send(new UpdateCommand({ TableName: tableName(), ...input }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Moves a bucket in use on by `stepMs` (takes tokens from it): only while its time lies between
 * `now` and `latest`. False when the bucket is full (its time passed) or has no room for the step.
 * `expiresAt`: epoch seconds after which the item may go (the bucket is full again by then).
 */
export function advanceBucket(integrationId: string, stepMs: number, now: number, latest: number, expiresAt: number): Promise<boolean> {
  return conditionalUpdate({
    Key: bucketKey(integrationId),
    UpdateExpression: 'ADD tat :step SET #ttl = :ttl',
    ConditionExpression: 'tat BETWEEN :now AND :latest',
    ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: { ':step': stepMs, ':now': now, ':latest': latest, ':ttl': expiresAt },
  });
}

/** Starts a full (or never used) bucket's time again at `next`: only when its time is before `now` or absent. */
export function restartBucket(integrationId: string, next: number, now: number, expiresAt: number): Promise<boolean> {
  return conditionalUpdate({
    Key: bucketKey(integrationId),
    UpdateExpression: 'SET tat = :next, #ttl = :ttl',
    ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
    ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: { ':next': next, ':now': now, ':ttl': expiresAt },
  });
}

/** The bucket's time as stored (consistent read); null when it has none (a full bucket). */
export async function readBucketTime(integrationId: string): Promise<number | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: bucketKey(integrationId), ConsistentRead: true }));
  const tat: unknown = out.Item?.tat;
  return typeof tat === 'number' ? tat : null;
}
