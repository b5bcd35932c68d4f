// Per-integration rate limit of the inbound endpoint (contract §4: 429 with Retry-After): a shared
// counter per integration and minute, so every instance draws from the same allowance.
//   (the counter: lib/integrations/store.ts, one item per integration and minute, expiring with TTL)
// An instance takes its allowance in leases (one conditional ADD of several requests) and spends
// them locally, so a busy instance pays one write per lease, not per request. Small limits lease one
// request at a time and stay exact; with large ones an instance may leave a few leased requests
// unused at the end of a minute, which only makes the limit a little stricter, never looser.
import { addToRateCounter } from '../store';

const MINUTE_MS = 60_000;

interface Lease {
  minute: number;
  remaining: number;
  /** A lease being taken: concurrent requests of this instance wait for it instead of taking more. */
  taking?: Promise<boolean>;
}

const leases = new Map<string, Lease>();
const MAX_LEASES = 10_000;

/** Requests per lease: 1 up to a limit of 200 a minute, then 0.5 % of the limit, at most 100. */
export function leaseSize(limitPerMinute: number): number {
  return Math.max(1, Math.min(100, Math.floor(limitPerMinute / 200)));
}

/** A new lease for this minute: the full size, else a single request if only a few remain. */
async function takeLease(integrationId: string, lease: Lease, limit: number): Promise<boolean> {
  const size = leaseSize(limit);
  if (await addToRateCounter(integrationId, lease.minute, size, limit)) {
    lease.remaining += size;
    return true;
  }
  if (size > 1 && (await addToRateCounter(integrationId, lease.minute, 1, limit))) {
    lease.remaining += 1;
    return true;
  }
  return false;
}

/** Takes one request from this minute's allowance; returns the seconds to wait when it is used up. */
export async function takeRateLimit(
  integrationId: string,
  limitPerMinute: number,
  now: number,
): Promise<{ retryAfterSeconds: number } | null> {
  const minute = Math.floor(now / MINUTE_MS);
  const refused = { retryAfterSeconds: Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now) / 1000)) };
  for (;;) {
    let lease = leases.get(integrationId);
    if (!lease || lease.minute !== minute) {
      // Leases of past minutes are worthless: forget them rather than grow with every integration seen.
      if (leases.size >= MAX_LEASES) for (const [id, old] of leases) if (old.minute !== minute) leases.delete(id);
      lease = { minute, remaining: 0 };
      leases.set(integrationId, lease);
    }
    if (lease.remaining > 0) {
      lease.remaining -= 1;
      return null;
    }
    if (!lease.taking) {
      const current = lease;
      current.taking = takeLease(integrationId, current, limitPerMinute).finally(() => {
        current.taking = undefined;
      });
    }
    if (!(await lease.taking)) return refused;
  }
}
