// A token bucket shared by every instance through one table item: the inbound webhooks' bucket per
// integration (lib/integrations/ingest/token-bucket.ts) and the API's request limits per credential,
// account and source address (lib/auth/request-limits.ts). Each keeps its own item key; the
// arithmetic and the writes are here.
//
// The bucket is kept as one number, its theoretical arrival time (GCRA): `tat` is when the bucket
// would be full again; each token moves it on by the emission interval T = 1 min / perMinute, and a
// request may take k tokens while `tat + k·T − now ≤ burst·T`. Both cases are one conditional write
// that needs no read first and no transaction:
//   bucket not full  UpdateItem ADD tat :k·T,         condition tat BETWEEN :now AND :now + (burst − k)·T
//   bucket full      UpdateItem SET tat = :now + k·T, condition attribute_not_exists(tat) OR tat < :now
//   item             <key>   {tat, expires_at}   (expires_at: once the bucket is full again; an
//                    absent item is a full bucket)
// Only when both refuse is the item read, to learn when the next token comes.
import { GetCommand, UpdateCommand, type UpdateCommandInput } from './commands';
import { db, tableName } from './client';
import { isConditionFailure } from './items';
import { TTL_ATTRIBUTE } from './table';

export interface BucketLimits {
  /** Tokens the bucket holds: a burst this large is accepted at once. */
  burst: number;
  /** Tokens added per minute: the sustained rate. */
  perMinute: number;
  /** TIME_SCALE (docs/api.md#escalation-and-notifications): a minute lasts 60 s / timeScale. */
  timeScale?: number;
}

export interface BucketKey {
  pk: string;
  sk: string;
}

const ATTEMPTS = 4;
/** Float error of epoch milliseconds (~1e12) with microsecond fractions stays far below this. */
const TOLERANCE_MS = 0.01;

/**
 * A take at `now` leaves a bucket's time at most burst·T ahead of it; instances whose clocks differ
 * can leave it that much further. A time further ahead than this margin is read as the clock having
 * gone back (a test's clock reset, a host's clock corrected), not as a busy bucket: it would refuse
 * every request for as long as the clock went back, so the bucket starts again full instead.
 */
const CLOCK_SKEW_MS = 2_000;

/** Whether a bucket's time lies beyond what any take at `now` could have left: the clock went back. */
export function beyondReach(tat: number, now: number, limits: BucketLimits, interval = emissionIntervalMs(limits)): boolean {
  return tat > now + limits.burst * interval + CLOCK_SKEW_MS;
}

/** Milliseconds per token, rounded to the microsecond so the stored decimals stay short. */
export function emissionIntervalMs(limits: BucketLimits): number {
  return Math.max(0.001, Math.round(60_000_000 / (limits.perMinute * (limits.timeScale ?? 1))) / 1000);
}

/** Whole tokens a bucket whose `tat` is known holds at `now` (may exceed the burst when idle). */
export function roomAt(tat: number, now: number, limits: BucketLimits, interval = emissionIntervalMs(limits)): number {
  return Math.floor((now + limits.burst * interval - tat + TOLERANCE_MS) / interval);
}

/** When a bucket whose time is `tat` holds one token again. */
export function nextTokenAt(tat: number, limits: BucketLimits, interval = emissionIntervalMs(limits)): number {
  return tat - (limits.burst - 1) * interval;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

async function conditionalUpdate(input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> {
  try {
    await db().send(new UpdateCommand({ TableName: tableName(), ...input }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Epoch seconds after which the item may go: the bucket is full again by then. */
function expiresAt(now: number, limits: BucketLimits, interval: number): number {
  return Math.ceil((now + limits.burst * interval) / 1000) + 60;
}

/** Takes k tokens from a bucket in use: only while its time lies between now and the latest that leaves room for k. */
function addTokens(key: BucketKey, k: number, now: number, limits: BucketLimits, interval: number): Promise<boolean> {
  return conditionalUpdate({
    Key: key,
    UpdateExpression: 'ADD tat :step SET #ttl = :ttl',
    ConditionExpression: 'tat BETWEEN :now AND :latest',
    ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: {
      ':step': round(k * interval),
      ':now': now,
      ':latest': round(now + (limits.burst - k) * interval),
      ':ttl': expiresAt(now, limits, interval),
    },
  });
}

/** Takes k tokens from a full bucket (or one never used): its time starts again from now. */
function restartFull(key: BucketKey, k: number, now: number, limits: BucketLimits, interval: number): Promise<boolean> {
  return conditionalUpdate({
    Key: key,
    UpdateExpression: 'SET tat = :next, #ttl = :ttl',
    ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
    ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: { ':next': round(now + k * interval), ':now': now, ':ttl': expiresAt(now, limits, interval) },
  });
}

/** Takes k tokens from a bucket whose time lies beyond reach (the clock went back): from now, as if full,
 * on condition that its time is still the one read. */
function restartFrom(key: BucketKey, readTat: number, k: number, now: number, limits: BucketLimits, interval: number): Promise<boolean> {
  return conditionalUpdate({
    Key: key,
    UpdateExpression: 'SET tat = :next, #ttl = :ttl',
    ConditionExpression: 'tat = :read',
    ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: { ':next': round(now + k * interval), ':read': readTat, ':ttl': expiresAt(now, limits, interval) },
  });
}

/** The bucket's time as stored (consistent read); null when it has none (a full bucket). */
async function readBucketTime(key: BucketKey): Promise<number | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const tat: unknown = out.Item?.tat;
  return typeof tat === 'number' ? tat : null;
}

export type TakeResult =
  /** `tat`: a lower bound of the bucket's time after the take (other instances may add to it). */
  | { granted: number; tat: number }
  /** `tat`: the bucket's time as read; `nextTokenAt`: when it holds one token again. */
  | { nextTokenAt: number; tat: number };

/**
 * Takes up to `wanted` tokens from the shared bucket at `key`: the number granted, or when the next
 * token comes. `knownTat`: what this instance last knew of the bucket (a lower bound), so the likelier
 * write goes first and the take asks only for tokens that can be there.
 */
export async function takeFromBucket(
  key: BucketKey,
  wanted: number,
  now: number,
  limits: BucketLimits,
  options: { knownTat?: number } = {},
): Promise<TakeResult> {
  const interval = emissionIntervalMs(limits);
  let k = Math.max(1, Math.min(wanted, limits.burst));
  // A bucket nobody drew from lately (or one this instance knows nothing of: most are quiet) is
  // likely full: SET first, one write. A bucket in use: ADD first.
  let fullFirst = options.knownTat === undefined || options.knownTat < now;
  // After a restart the bucket's time is exactly now + k·T; after an add, at least that past what was known.
  const restarted = () => ({ granted: k, tat: now + k * interval });
  const added = () => ({ granted: k, tat: Math.max(now, options.knownTat ?? now) + k * interval });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (fullFirst) {
      if (await restartFull(key, k, now, limits, interval)) return restarted();
      if (await addTokens(key, k, now, limits, interval)) return added();
    } else {
      if (await addTokens(key, k, now, limits, interval)) return added();
      if (await restartFull(key, k, now, limits, interval)) return restarted();
    }
    const tat = await readBucketTime(key);
    if (tat === null || tat < now) {
      fullFirst = true; // another request moved it meanwhile: try again
      continue;
    }
    if (beyondReach(tat, now, limits, interval)) {
      if (await restartFrom(key, tat, k, now, limits, interval)) return restarted();
      continue;
    }
    const room = roomAt(tat, now, limits, interval);
    if (room >= 1) {
      k = Math.min(k, room);
      fullFirst = false;
      continue;
    }
    return { nextTokenAt: nextTokenAt(tat, limits, interval), tat };
  }
  // Heavy contention on one bucket: come back after one token's time.
  return { nextTokenAt: now + interval, tat: now };
}
