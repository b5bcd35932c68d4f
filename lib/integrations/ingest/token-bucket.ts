// Per-integration rate limit of inbound webhooks (docs/api.md#errors, docs/api.md#rate-limits: 429 with Retry-After): a token
// bucket of `burst` tokens refilled at `perMinute`, shared by every instance through the table
// (lib/store/gcra-bucket.ts: the arithmetic and the conditional writes; the item
// INT#<integration>#RATE / BUCKET, lib/integrations/rate-store.ts). When the table has no token, the
// instance refuses locally until the next one comes (Retry-After), so a flood past the limit costs
// no table writes.
//
// Leases: one take serves every request of the instance waiting for it (they ask together), and an
// instance that is busy (it took from the table less than a second ago) adds a few tokens for the
// requests about to come, handed out in-process: a busy instance pays one write per lease, not per
// request. A quiet instance takes one token at a time, which keeps small limits exact. Leased tokens
// are good for one second; unused ones are dropped (stricter by at most a lease, never looser).
import { now as clockNow } from '../../clock';
import { emissionIntervalMs, nextTokenAt, roomAt, takeFromBucket, type BucketLimits, type TakeResult } from '../../store/gcra-bucket';
import { rateBucketKey } from '../rate-store';

export { emissionIntervalMs, type BucketLimits, type TakeResult };

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

/** Tokens a busy instance takes at once: none extra up to 200 a minute (exact), then 0.5 % of the
 * smaller of burst and rate, at most 100. */
export function leaseSize(limits: BucketLimits): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(Math.min(limits.burst, limits.perMinute) / 200)));
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

/** Takes up to `wanted` tokens from the integration's shared bucket (lib/store/gcra-bucket.ts). */
export function takeFromTable(
  integrationId: string,
  wanted: number,
  now: number,
  limits: BucketLimits,
  options: { knownTat?: number } = {},
): Promise<TakeResult> {
  return takeFromBucket(rateBucketKey(integrationId), wanted, now, limits, options);
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
          bucket.blockedUntil = nextTokenAt(bucket.knownTat, limits, interval);
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
