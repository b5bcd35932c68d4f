// The account's alert event subscribers as the publisher reads them (lib/alerts/alert-events.ts):
// cached in-process for a few seconds, and dropped at once by a change made in this process, so a
// subscriber saved here hears the very next change.
import { TtlCache } from '../ttl-cache';
import { listAlertEventSubscribers, putAlertEventSubscriber, type AlertEventSubscriber } from './store';

export type { AlertEventSubscriber };

const CACHE_MS = 5_000;
const subscribers = new TtlCache<AlertEventSubscriber[]>(() => CACHE_MS);

export async function subscribersOf(accountId: string): Promise<AlertEventSubscriber[]> {
  const cached = subscribers.get(accountId);
  if (cached) return cached;
  const found = await listAlertEventSubscribers(accountId);
  subscribers.set(accountId, found);
  return found;
}

/** Sets or removes (null) a subscriber of the account's alert events. */
export async function setAlertEventSubscriber(accountId: string, subscriberId: string, events: readonly string[] | null): Promise<void> {
  await putAlertEventSubscriber(accountId, subscriberId, events ? [...events] : null);
  subscribers.delete(accountId);
}
