// Per-integration rate limit of inbound webhooks (docs/api.md#errors, docs/api.md#rate-limits: 429 with Retry-After): a token
// bucket of `burst` tokens refilled at `perMinute`, shared by every instance through the table.
//
// The bucket is kept as one number, its theoretical arrival time (GCRA): `tat` is when the bucket
// would be full again; each token moves it on by the emission interval T = 1 min / perMinute, and a
// request may take k tokens while `tat + k·T − now ≤ burst·T`. Both cases are one conditional write
// that needs no read first and no transaction:
//   bucket not full  UpdateItem ADD tat :k·T,         condition tat BETWEEN :now AND :now + (burst − k)·T
//   bucket full      UpdateItem SET tat = :now + k·T, condition attribute_not_exists(tat) OR tat < :now
//   item             INT#<integration>#RATE / BUCKET   (expires_at: once the bucket is full again;
//                    the reads and writes: lib/integrations/rate-store.ts)
// Only when both refuse is the item read, to learn when the next token comes (Retry-After); the
// instance then refuses locally until that moment, so a flood past the limit costs no table writes.
//
// Leases: one take serves every request of the instance waiting for it (they ask together), and an
// instance that is busy (it took from the table less than a second ago) adds a few tokens for the
// requests about to come, handed out in-process: a busy instance pays one write per lease, not per
// request. A quiet instance takes one token at a time, which keeps small limits exact. Leased tokens
// are good for one second; unused ones are dropped (stricter by at most a lease, never looser).
import { now as clockNow } from '../../clock';
import { advanceBucket, readBucketTime, restartBucket } from '../rate-store';

export interface BucketLimits {
  /** Tokens the bucket holds: a burst this large is accepted at once. */
  burst: number;
  /** Tokens added per minute: the sustained rate. */
  perMinute: number;
  /** TIME_SCALE (docs/api.md#escalation-and-notifications): a minute lasts 60 s / timeScale. */
  timeScale?: number;
}

export interface Refusal {
  /** Whole seconds until a token is available (at least 1). */
  retryAfterSeconds: number;
}

const LEASE_MS = 1_000;
const BUSY_MS = 1_000;
const MAX_LEASE = 100;
/** Tokens one take asks for at most (waiting requests plus a lease). */
const MAX_TAKE = 500;
const MAX_LOCAL = 10_000;
const ATTEMPTS = 4;

/** Tokens a busy instance takes at once: none extra up to 200 a minute (exact), then 0.5 % of the
 * smaller of burst and rate, at most 100. */
export function leaseSize(limits: BucketLimits): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(Math.min(limits.burst, limits.perMinute) / 200)));
}

/** Milliseconds per token, rounded to the microsecond so the stored decimals stay short. */
export function emissionIntervalMs(limits: BucketLimits): number {
  return Math.max(0.001, Math.round(60_000_000 / (limits.perMinute * (limits.timeScale ?? 1))) / 1000);
}

export interface LocalBucket {
  tokens: number;
  leaseExpiresAt: number;
  /** The table said: no token before this time. */
  blockedUntil: number;
  lastTakeAt: number;
  /** A lower bound of the shared bucket's `tat` (it only ever grows): no token can be there sooner. */
  knownTat?: number;
  /** Requests of this instance waiting for the take in flight: demand the next take serves at once. */
  waiting: number;
  taking?: Promise<void>;
  /** The limits its lease and block were worked out under: a change of limits drops both. */
  limitsKey: string;
}

/** What one instance (one process) knows of the buckets: its leases and blocks. */
export type InstanceBuckets = Map<string, LocalBucket>;

const thisInstance: InstanceBuckets = new Map();

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function expiresAt(now: number, limits: BucketLimits, interval: number): number {
  return Math.ceil((now + limits.burst * interval) / 1000) + 60;
}

/** Takes k tokens from a bucket that is not full. */
function addTokens(integrationId: string, k: number, now: number, limits: BucketLimits, interval: number): Promise<boolean> {
  return advanceBucket(
    integrationId,
    round(k * interval),
    now,
    round(now + (limits.burst - k) * interval),
    expiresAt(now, limits, interval),
  );
}

/** Takes k tokens from a full bucket (or one never used): its time starts again from now. */
function restartFull(integrationId: string, k: number, now: number, limits: BucketLimits, interval: number): Promise<boolean> {
  return restartBucket(integrationId, round(now + k * interval), now, expiresAt(now, limits, interval));
}

/** Float error of epoch milliseconds (~1e12) with microsecond fractions stays far below this. */
const TOLERANCE_MS = 0.01;

/** Whole tokens a bucket whose `tat` is known holds at `now` (may exceed the burst when idle). */
function roomAt(tat: number, now: number, limits: BucketLimits, interval: number): number {
  return Math.floor((now + limits.burst * interval - tat + TOLERANCE_MS) / interval);
}

export type TakeResult =
  /** `tat`: a lower bound of the bucket's time after the take (other instances may add to it). */
  | { granted: number; tat: number }
  /** `tat`: the bucket's time as read; `nextTokenAt`: when it holds one token again. */
  | { nextTokenAt: number; tat: number };

/**
 * Takes up to `wanted` tokens from the shared bucket: the number granted, or when the next token
 * comes. `knownTat`: what this instance last knew of the bucket (a lower bound), so the likelier
 * write goes first and the take asks only for tokens that can be there.
 */
export async function takeFromTable(
  integrationId: string,
  wanted: number,
  now: number,
  limits: BucketLimits,
  options: { knownTat?: number } = {},
): Promise<TakeResult> {
  const interval = emissionIntervalMs(limits);
  let k = Math.max(1, Math.min(wanted, limits.burst));
  // A bucket nobody drew from lately (or one this instance knows nothing of: most integrations are
  // quiet) is likely full: SET first, one write. A bucket in use: ADD first.
  let fullFirst = options.knownTat === undefined || options.knownTat < now;
  // After a restart the bucket's time is exactly now + k·T; after an add, at least that past what was known.
  const restarted = () => ({ granted: k, tat: now + k * interval });
  const added = () => ({ granted: k, tat: Math.max(now, options.knownTat ?? now) + k * interval });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (fullFirst) {
      if (await restartFull(integrationId, k, now, limits, interval)) return restarted();
      if (await addTokens(integrationId, k, now, limits, interval)) return added();
    } else {
      if (await addTokens(integrationId, k, now, limits, interval)) return added();
      if (await restartFull(integrationId, k, now, limits, interval)) return restarted();
    }
    const tat = await readBucketTime(integrationId);
    if (tat === null || tat < now) {
      fullFirst = true; // another request moved it meanwhile: try again
      continue;
    }
    const room = roomAt(tat, now, limits, interval);
    if (room >= 1) {
      k = Math.min(k, room);
      fullFirst = false;
      continue;
    }
    return { nextTokenAt: tat - (limits.burst - 1) * interval, tat };
  }
  // Heavy contention on one bucket: ask the sender to come back after one token's time.
  return { nextTokenAt: now + interval, tat: now };
}

function bucketOf(local: InstanceBuckets, integrationId: string, limits: BucketLimits): LocalBucket {
  const limitsKey = `${limits.burst}/${limits.perMinute}/${limits.timeScale ?? 1}`;
  let bucket = local.get(integrationId);
  if (bucket && bucket.limitsKey !== limitsKey) {
    // The integration's limits changed (an update through the API): tokens leased and a block
    // worked out under the old ones do not hold any more. What is known of the shared bucket does.
    Object.assign(bucket, { tokens: 0, leaseExpiresAt: 0, blockedUntil: 0, limitsKey });
  }
  if (!bucket) {
    if (local.size >= MAX_LOCAL) {
      const now = clockNow();
      for (const [id, old] of local) {
        if (!old.taking && old.blockedUntil < now && (old.tokens === 0 || old.leaseExpiresAt < now)) local.delete(id);
      }
    }
    bucket = { tokens: 0, leaseExpiresAt: 0, blockedUntil: 0, lastTakeAt: 0, waiting: 0, limitsKey };
    local.set(integrationId, bucket);
  }
  return bucket;
}

const refusal = (until: number, now: number): Refusal => ({ retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) });

/**
 * Takes one token for a request at `now`: null when it may pass, else how long to wait. `instance`:
 * this process's leases and blocks (a test passes another map to act as a second instance).
 */
export async function takeToken(
  integrationId: string,
  limits: BucketLimits,
  now: number,
  instance: InstanceBuckets = thisInstance,
): Promise<Refusal | null> {
  const bucket = bucketOf(instance, integrationId, limits);
  for (let first = true; ; first = false) {
    // Time goes on while a request waits for a take: judge it at the time it is decided.
    if (!first) now = Math.max(now, clockNow());
    if (bucket.tokens > 0 && bucket.leaseExpiresAt >= now) {
      bucket.tokens -= 1;
      return null;
    }
    if (bucket.blockedUntil > now) return refusal(bucket.blockedUntil, now);
    if (!bucket.taking) {
      // Requests already waiting are served by this take, so asking for them wastes nothing; a busy
      // instance adds a lease for the ones about to come.
      const busy = now - bucket.lastTakeAt < BUSY_MS;
      let wanted = Math.min(MAX_TAKE, bucket.waiting + (busy ? leaseSize(limits) : 1));
      if (bucket.knownTat !== undefined) {
        // The shared bucket cannot hold more than its known time allows: with no token yet, refuse
        // without asking the table (tokens only come with time), else ask for no more than can be there.
        const interval = emissionIntervalMs(limits);
        const room = roomAt(bucket.knownTat, now, limits, interval);
        if (room < 1) {
          bucket.blockedUntil = bucket.knownTat - (limits.burst - 1) * interval;
          return refusal(bucket.blockedUntil, now);
        }
        wanted = Math.min(wanted, room);
      }
      bucket.lastTakeAt = now;
      bucket.taking = takeFromTable(integrationId, wanted, now, limits, { knownTat: bucket.knownTat })
        .then((result) => {
          bucket.knownTat = Math.max(bucket.knownTat ?? 0, result.tat);
          if ('granted' in result) {
            bucket.tokens = result.granted;
            bucket.leaseExpiresAt = now + LEASE_MS;
          } else {
            bucket.tokens = 0;
            bucket.blockedUntil = result.nextTokenAt;
          }
        })
        .finally(() => {
          bucket.taking = undefined;
        });
    }
    bucket.waiting += 1;
    try {
      await bucket.taking;
    } finally {
      bucket.waiting -= 1;
    }
  }
}
