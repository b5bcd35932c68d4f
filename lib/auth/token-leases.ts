// Leases of tokens from shared buckets (lib/store/gcra-bucket.ts), so that most API requests wait for
// no table write at all: each instance (one process, one warm Lambda) takes a few tokens of a bucket
// with one conditional UpdateItem and spends them in-process, and takes the next lease in the
// background while the last ones are spent. A request checks all its buckets (credential, account)
// at once and spends from each only when every one has a token, so a refused request takes nothing.
//
// How large a lease is: what this instance spent of the bucket during the last lease period (at
// least 2, so a quiet client pays one write per two requests per bucket, not one per request), at
// most `maxLease`: a tenth of the smaller of burst and rate (1 below 20, which keeps small limits
// exact). Tokens leased are good for LEASE_MS (÷ TIME_SCALE, at least 250 ms) from when they land; unspent ones are dropped, which makes
// a bucket stricter, never looser. Across N instances a limit can be exceeded only by tokens leased
// and not yet spent: at most N × maxLease (20 per instance for a credential at 1 200 a minute with a
// burst of 200, 100 for an account at 6 000), and never more than the rate over two lease periods.
//
// A refusal is decided in-process: once the table says when the next token comes (or what this
// instance knows of the bucket's time says there is none), the instance refuses without asking the
// table again until a whole lease has come back, so a flood past the limit costs no write per
// refused request, and a client held at its limit one write per lease.
import { now as clockNow } from '../clock';
import {
  beyondReach,
  emissionIntervalMs,
  nextTokenAt,
  roomAt,
  takeFromBucket,
  type BucketKey,
  type BucketLimits,
} from '../store/gcra-bucket';

export const LEASE_MS = 2_000;
const MIN_LEASE = 2;
/** Tokens one take asks for at most (waiting requests plus a lease). */
const MAX_TAKE = 500;
const MAX_BUCKETS = 10_000;
/** Takes one request waits for at most before it is refused. */
const MAX_WAITS = 16;

export interface LeasedBucket {
  key: BucketKey;
  limits: BucketLimits;
  tokens: number;
  leaseExpiresAt: number;
  /** The table said: no token before this time. */
  blockedUntil: number;
  /** A lower bound of the shared bucket's `tat` (it only ever grows): no token can be there sooner. */
  knownTat?: number;
  /** Requests of this instance waiting for the take in flight. */
  waiting: number;
  taking?: Promise<void>;
  /** Tokens spent in the current and the previous lease period: the demand a lease is sized by. */
  spent: { periodStart: number; current: number; previous: number };
}

/** What one instance knows of the buckets it draws from: its leases and blocks, by bucket key. */
export type LeaseInstance = Map<string, LeasedBucket>;

export interface BucketRequest {
  key: BucketKey;
  limits: BucketLimits;
}

/** A lease's life never shrinks below this, however fast TIME_SCALE makes a minute: a lease must
 * outlive the table write that brings it, or the requests waiting for it would never be served. */
const MIN_LEASE_MS = 250;

const leasePeriod = (limits: BucketLimits) => Math.max(MIN_LEASE_MS, LEASE_MS / (limits.timeScale ?? 1));

export function maxLease(limits: BucketLimits): number {
  return Math.max(1, Math.floor(Math.min(limits.burst, limits.perMinute) / 10));
}

const idOf = (key: BucketKey) => `${key.pk}|${key.sk}`;
const sameLimits = (a: BucketLimits, b: BucketLimits) => a.burst === b.burst && a.perMinute === b.perMinute && a.timeScale === b.timeScale;

function bucketOf(instance: LeaseInstance, request: BucketRequest, now: number): LeasedBucket {
  const id = idOf(request.key);
  let bucket = instance.get(id);
  if (bucket && !sameLimits(bucket.limits, request.limits)) {
    // The operator changed the limits: a lease and a block worked out under the old ones do not hold.
    Object.assign(bucket, { limits: request.limits, tokens: 0, leaseExpiresAt: 0, blockedUntil: 0 });
  }
  if (!bucket) {
    if (instance.size >= MAX_BUCKETS) {
      for (const [other, old] of instance) {
        if (!old.taking && old.blockedUntil < now && old.leaseExpiresAt < now) instance.delete(other);
      }
    }
    bucket = {
      key: request.key,
      limits: request.limits,
      tokens: 0,
      leaseExpiresAt: 0,
      blockedUntil: 0,
      waiting: 0,
      spent: { periodStart: now, current: 0, previous: 0 },
    };
    instance.set(id, bucket);
  } else {
    if (
      (bucket.knownTat !== undefined && beyondReach(bucket.knownTat, now, bucket.limits)) ||
      beyondReach(bucket.blockedUntil, now, bucket.limits) ||
      bucket.spent.periodStart > now
    ) {
      // The clock went back (a test's reset, a host's correction): what this instance knew of the
      // bucket lies in a future that is not coming; the table's item is restarted likewise.
      Object.assign(bucket, { tokens: 0, leaseExpiresAt: 0, blockedUntil: 0, knownTat: undefined });
      bucket.spent = { periodStart: now, current: 0, previous: 0 };
    }
    // Move to the LRU end: the eviction above drops the buckets used longest ago first.
    instance.delete(id);
    instance.set(id, bucket);
  }
  return bucket;
}

function countSpent(bucket: LeasedBucket, now: number): void {
  const period = leasePeriod(bucket.limits);
  const spent = bucket.spent;
  if (now - spent.periodStart >= period) {
    spent.previous = now - spent.periodStart >= 2 * period ? 0 : spent.current;
    spent.current = 0;
    spent.periodStart = now;
  }
  spent.current += 1;
}

function leaseSize(bucket: LeasedBucket): number {
  const most = maxLease(bucket.limits);
  return Math.min(most, Math.max(MIN_LEASE, bucket.spent.previous, bucket.spent.current));
}

const usable = (bucket: LeasedBucket, now: number) => (bucket.leaseExpiresAt >= now ? bucket.tokens : 0);

/**
 * When an emptied bucket is taken from again: once it holds a whole lease, not its first token, so a
 * client held at its limit costs one write per lease, not one per request (with leases of one token,
 * small limits, the first token: exact).
 */
function refilledAt(bucket: LeasedBucket, tat: number): number {
  const interval = emissionIntervalMs(bucket.limits);
  return nextTokenAt(tat, bucket.limits, interval) + (Math.min(leaseSize(bucket), bucket.limits.burst) - 1) * interval;
}

/** Blocks the bucket when what this instance knows of its time leaves no token: no write needed to refuse. */
function blockedByKnownTime(bucket: LeasedBucket, now: number): boolean {
  if (bucket.blockedUntil > now) return true;
  if (bucket.knownTat === undefined) return false;
  if (roomAt(bucket.knownTat, now, bucket.limits) >= 1) return false;
  bucket.blockedUntil = refilledAt(bucket, bucket.knownTat);
  return true;
}

/** Starts a take for `wanted` tokens; its tokens join the lease when it lands. */
function startTake(bucket: LeasedBucket, wanted: number, now: number): Promise<void> {
  if (bucket.knownTat !== undefined) wanted = Math.min(wanted, Math.max(1, roomAt(bucket.knownTat, now, bucket.limits)));
  const take = takeFromBucket(bucket.key, Math.min(MAX_TAKE, wanted), now, bucket.limits, { knownTat: bucket.knownTat })
    .then((result) => {
      bucket.knownTat = Math.max(bucket.knownTat ?? 0, result.tat);
      if ('granted' in result) {
        // Good from when it lands: a slow write must not bring tokens that are already over.
        const landed = Math.max(now, clockNow());
        bucket.tokens = usable(bucket, landed) + result.granted;
        bucket.leaseExpiresAt = landed + leasePeriod(bucket.limits);
      } else {
        bucket.blockedUntil = Math.max(result.nextTokenAt, refilledAt(bucket, result.tat));
      }
    })
    .finally(() => {
      bucket.taking = undefined;
    });
  bucket.taking = take;
  return take;
}

/** Leases the next tokens before these run out, without making anyone wait for it. */
function refillAhead(bucket: LeasedBucket, now: number): void {
  if (bucket.taking || bucket.blockedUntil > now) return;
  const size = leaseSize(bucket);
  // Only a bucket spent from steadily: a quiet one would lease tokens that expire unspent.
  if (size <= MIN_LEASE || usable(bucket, now) > size / 2) return;
  // A bucket this instance knows to be empty (its known time is a lower bound, so the room it gives
  // is an upper bound): the take could only fail, two refused writes and a read, which a client held at
  // its limit would pay on every lease. The request that finds the lease spent blocks it instead.
  if (bucket.knownTat !== undefined && roomAt(bucket.knownTat, now, bucket.limits) < 1) return;
  startTake(bucket, size, now).catch(() => undefined);
}

export type Admission =
  | { admitted: true; buckets: LeasedBucket[] }
  /** `refusedBy`: the buckets with no token, `until`: when the last of them has one again. */
  | { admitted: false; buckets: LeasedBucket[]; refusedBy: LeasedBucket[]; until: number };

/**
 * Takes one token from every bucket for a request at `now`, or none: admitted, or refused until the
 * time its buckets have a token again. `instance`: this process's leases (a test passes another map
 * to act as a second instance).
 */
export async function admit(requests: readonly BucketRequest[], now: number, instance: LeaseInstance): Promise<Admission> {
  const buckets = requests.map((request) => bucketOf(instance, request, now));
  for (let attempt = 0; ; attempt++) {
    // Time goes on while a request waits for a take: judge it at the time it is decided.
    if (attempt > 0) now = Math.max(now, clockNow());
    const empty = buckets.filter((bucket) => usable(bucket, now) < 1);
    const refusedBy = empty.filter((bucket) => blockedByKnownTime(bucket, now));
    if (refusedBy.length > 0) {
      return { admitted: false, buckets, refusedBy, until: Math.max(...refusedBy.map((bucket) => bucket.blockedUntil)) };
    }
    if (empty.length === 0) {
      for (const bucket of buckets) {
        bucket.tokens -= 1;
        countSpent(bucket, now);
        refillAhead(bucket, now);
      }
      return { admitted: true, buckets };
    }
    if (attempt >= MAX_WAITS) {
      // Takes keep landing spent by others of this instance (each take leaves less room, so this
      // takes a crowd far larger than the burst): refuse for one token's time.
      const until = now + Math.max(...empty.map((bucket) => emissionIntervalMs(bucket.limits)));
      return { admitted: false, buckets, refusedBy: empty, until };
    }
    await Promise.all(
      empty.map(async (bucket) => {
        if (!bucket.taking) void startTake(bucket, Math.max(leaseSize(bucket), bucket.waiting + 1), now);
        bucket.waiting += 1;
        try {
          await bucket.taking;
        } finally {
          bucket.waiting -= 1;
        }
      }),
    );
  }
}

/** Tokens the bucket has for this instance now, as far as it knows: its lease and the shared bucket's room. */
export function remainingOf(bucket: LeasedBucket, now: number): number {
  if (bucket.blockedUntil > now) return 0;
  const room = bucket.knownTat === undefined ? bucket.limits.burst : Math.max(0, roomAt(bucket.knownTat, now, bucket.limits));
  return Math.min(bucket.limits.burst, usable(bucket, now) + room);
}

/** Milliseconds until the shared bucket is full again, as far as this instance knows. */
export function untilFullMs(bucket: LeasedBucket, now: number): number {
  return bucket.knownTat === undefined ? 0 : Math.max(0, bucket.knownTat - now);
}
