// Request limits of the API (docs/api.md#request-limits): every authenticated request takes a token from
// its credential's bucket and from its account's; the public sign-in routes take one from their
// source address's. Beyond a limit: 429 with Retry-After and the RateLimit-* fields. Inbound webhooks
// have their own bucket per integration (lib/integrations/ingest/token-bucket.ts) and pass none of these.
//
// What a credential is: an API key is its key (two keys acting as one account user have a bucket
// each: a service account per job); a login session is the person's account user, so every login
// token of one person in one account shares one bucket and signing in again gives no new allowance.
//
// The RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset fields follow
// draft-ietf-httpapi-ratelimit-headers-01 (the three-field form, before the drafts merged them into
// one `RateLimit` field): they describe the bucket closest to refusing (the lowest remaining) — Limit
// its burst (what can be spent at once), Remaining its tokens as this instance knows them, Reset the
// seconds until it is full again; on a 429 Reset names the same moment as Retry-After, as the draft asks.
import { now as clockNow } from '../clock';
import { config } from '../config';
import { dependencies, onEnvironmentChange } from '../dependencies';
import { TooManyRequests } from '../http/errors';
import type { Principal } from '../http/principal';
import type { BucketLimits } from '../store/gcra-bucket';
import { accountBucketKey, apiKeyBucketKey, sessionBucketKey, sourceBucketKey } from './request-limit-store';
import { admit, remainingOf, untilFullMs, type BucketRequest, type LeasedBucket, type LeaseInstance } from './token-leases';

export interface RequestLimits {
  /** Each credential, and each source address on the public sign-in routes. */
  credential: BucketLimits;
  /** Each account, all its credentials together. */
  account: BucketLimits;
}

/**
 * The limits in force: the operator's API_RATE_LIMIT_PER_MINUTE and API_RATE_LIMIT_BURST per
 * credential, ACCOUNT_RATE_LIMIT_PER_MINUTE per account, whose burst keeps a credential's ratio of
 * burst to rate (1 000 at the defaults: 6 000 a minute, bursts of 10 s).
 */
export function requestLimits(): RequestLimits {
  const settings = config();
  const timeScale = settings.TIME_SCALE;
  const perMinute = settings.API_RATE_LIMIT_PER_MINUTE;
  const burst = settings.API_RATE_LIMIT_BURST;
  const accountPerMinute = settings.ACCOUNT_RATE_LIMIT_PER_MINUTE;
  return {
    credential: { burst, perMinute, timeScale },
    account: { burst: Math.max(1, Math.round((accountPerMinute * burst) / perMinute)), perMinute: accountPerMinute, timeScale },
  };
}

const thisInstance: LeaseInstance = new Map();
// Leases of another table (the local runtime, tests) mean nothing here.
onEnvironmentChange(() => thisInstance.clear());

/** What a limited request answers with: the RateLimit-* fields of the bucket closest to refusing. */
export type RateLimitFields = Record<string, string>;

interface Named extends BucketRequest {
  /** Who the bucket limits, in a 429's message: `this API key`, `this account`, … */
  who: string;
}

function fieldsOf(bucket: LeasedBucket, now: number, untilMs?: number): RateLimitFields {
  const remaining = untilMs === undefined ? remainingOf(bucket, now) : 0;
  const reset = Math.ceil((untilMs ?? untilFullMs(bucket, now)) / 1000);
  return {
    'ratelimit-limit': String(bucket.limits.burst),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(untilMs === undefined ? reset : Math.max(1, reset)),
  };
}

const describe = (named: Named) =>
  `${named.who} (${named.limits.perMinute} a minute${named.who === 'this account' ? '' : `, bursts of ${named.limits.burst}`})`;

async function take(named: Named[], instance: LeaseInstance): Promise<RateLimitFields> {
  const now = clockNow();
  const answer = await admit(named, now, instance);
  if (!answer.admitted) {
    const until = answer.until - now;
    const first = named[answer.buckets.indexOf(answer.refusedBy[0])];
    throw new TooManyRequests(
      until / 1000,
      `Too many requests for ${describe(first)}: try again in ${Math.max(1, Math.ceil(until / 1000))} s`,
      fieldsOf(answer.refusedBy[0], now, until),
    );
  }
  let closest = answer.buckets[0];
  for (const bucket of answer.buckets) if (remainingOf(bucket, now) < remainingOf(closest, now)) closest = bucket;
  return fieldsOf(closest, now);
}

const off = () => dependencies().requestLimits === 'off';

/** Takes a request of an authenticated caller from its credential's and its account's buckets: its RateLimit-* fields, or a 429. */
export function limitCaller(principal: Principal, instance: LeaseInstance = thisInstance): Promise<RateLimitFields> {
  if (off()) return Promise.resolve({});
  const limits = requestLimits();
  const credential: Named =
    principal.apiKeyId !== undefined
      ? { key: apiKeyBucketKey(principal.accountId, principal.apiKeyId), limits: limits.credential, who: 'this API key' }
      : principal.scimTokenId !== undefined
        ? { key: apiKeyBucketKey(principal.accountId, principal.scimTokenId), limits: limits.credential, who: 'this SCIM token' }
        : { key: sessionBucketKey(principal.accountId, principal.accountUserId), limits: limits.credential, who: 'your sessions' };
  return take([credential, { key: accountBucketKey(principal.accountId), limits: limits.account, who: 'this account' }], instance);
}

/** Takes a request of a public sign-in route from its source address's bucket (the credential limits). */
export function limitSource(address: string, instance: LeaseInstance = thisInstance): Promise<RateLimitFields> {
  if (off() || address === '') return Promise.resolve({});
  return take([{ key: sourceBucketKey(address), limits: requestLimits().credential, who: 'this address' }], instance);
}
