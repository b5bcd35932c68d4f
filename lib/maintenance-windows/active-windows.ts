// Is an integration in maintenance now? Asked on every inbound webhook, so the account's windows that
// are not over yet (one index Query) are cached in-process for a few seconds; whether one is active is
// decided per request against the clock. Changes through the API drop the account's entry at once.
import { TtlCache } from '../ttl-cache';
import type { MaintenanceWindowRecord } from './records';
import { listWindowsEndingAfter } from './store';

const CACHE_MS = 5_000;
const cache = new TtlCache<MaintenanceWindowRecord[]>(() => CACHE_MS);

/** Windows listing the integration that contain `now` ([start, end)). */
export async function activeWindowsOf(accountId: string, integrationId: string, now: number): Promise<MaintenanceWindowRecord[]> {
  let windows = cache.get(accountId);
  if (!windows) {
    windows = await listWindowsEndingAfter(accountId, new Date(now).toISOString());
    cache.set(accountId, windows);
  }
  return windows.filter(
    (w) => w.integration_ids.includes(integrationId) && Date.parse(w.start_datetime) <= now && now < Date.parse(w.end_datetime),
  );
}

export function forgetAccountWindows(accountId: string): void {
  cache.delete(accountId);
}
