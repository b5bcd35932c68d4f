// The canary's one item (lib/monitoring/canary.ts): which alert it is waiting on, and when it started.
//   canary   SYSTEM / CANARY   {account_id, alert_id | null, started_at (epoch ms), version}
// Every change is a versioned put, so two sweeper runs side by side never start two canaries.
import { getItem, putIfVersion, putNew } from '../store/items';

const CANARY_KEY = { pk: 'SYSTEM', sk: 'CANARY' };

export interface CanaryState {
  account_id: string;
  /** The canary alert not yet checked; null once it was (paged, or given up on). */
  alert_id: string | null;
  /** When the last canary alert was started, by the service's clock. */
  started_at: number;
  version: number;
}

export async function getCanaryState(): Promise<CanaryState | null> {
  const item = await getItem(CANARY_KEY);
  if (!item) return null;
  return {
    account_id: String(item.account_id),
    alert_id: typeof item.alert_id === 'string' ? item.alert_id : null,
    started_at: Number(item.started_at),
    version: Number(item.version),
  };
}

/** Writes the next state over `previous` (null: none stored yet); false when another run changed it first. */
export async function saveCanaryState(next: Omit<CanaryState, 'version'>, previous: CanaryState | null): Promise<boolean> {
  const item = { ...CANARY_KEY, ...next, version: (previous?.version ?? 0) + 1 };
  return previous ? putIfVersion(item, previous.version) : putNew(item);
}
