// Routers as the routing worker reads them, cached in-process for a few seconds: a burst of alerts
// through one router costs one read, not one per alert. Every change made through the API drops the
// entry at once; deployed, another warm instance may route with the previous version for at most the
// TTL, as integrations and credentials are cached.
import { TtlCache } from '../ttl-cache';
import type { RouterRecord } from './records';
import { getRouter } from './store';

const CACHE_MS = 5_000;
const cache = new TtlCache<RouterRecord | null>(() => CACHE_MS);
const key = (accountId: string, id: string) => `${accountId}|${id}`;

export async function routerForRouting(accountId: string, id: string): Promise<RouterRecord | null> {
  const cached = cache.get(key(accountId, id));
  if (cached !== undefined) return cached;
  const record = await getRouter(accountId, id);
  // Absent routers are not remembered: one created a moment later must be found.
  if (record) cache.set(key(accountId, id), record);
  return record;
}

export function forgetRouter(accountId: string, id: string): void {
  cache.delete(key(accountId, id));
}
