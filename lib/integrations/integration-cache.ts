// Integrations found by id alone (the inbound endpoint and the ingest worker), cached in-process for a
// few seconds so a burst of webhooks costs no store round trip per request. Every change made through
// the API drops the entry at once; deployed, another warm instance may serve a stale entry for at most
// the TTL (a disabled integration accepts a few more seconds of webhooks), as the credential cache does.
import { TtlCache } from '../ttl-cache';
import type { IntegrationRecord } from './records';
import { getAccountOfIntegration, getIntegration } from './store';

const CACHE_MS = 5_000;
const cache = new TtlCache<IntegrationRecord>(() => CACHE_MS);

export async function integrationById(id: string): Promise<IntegrationRecord | null> {
  const cached = cache.get(id);
  if (cached) return cached;
  const accountId = await getAccountOfIntegration(id);
  const record = accountId ? await getIntegration(accountId, id) : null;
  if (record) cache.set(id, record);
  return record;
}

export function forgetIntegration(id: string): void {
  cache.delete(id);
}
