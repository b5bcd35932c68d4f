// One delivery of one alert event to one outgoing webhook integration (docs/api.md#routers-and-automations): the exact body
// sent on every try (so the signature and X-Webhook-Id are the same each time), and its state.
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveryRecord {
  /** Derived from the event's timeline entry and the integration: also the X-Webhook-Id. */
  id: string;
  account_id: string;
  integration_id: string;
  alert_id: string;
  event: string;
  /** The JSON text POSTed: {"type": …, "data": <the alert, earlier representation>}. */
  body: string;
  status: DeliveryStatus;
  /** Tries started so far. */
  attempts: number;
  /** When the next try is due (epoch ms); while a try runs, when it is considered lost. */
  due_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Waits between tries, before TIME_SCALE: 30 s, 1, 2, 5, 10, 30 min, 1, 2, 4 h, then 6 h three times.
 * 13 tries over about 25.8 hours: a receiver that is down for a day still gets the event.
 */
export const RETRY_DELAYS_MS = [
  30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 21_600_000, 21_600_000, 21_600_000,
] as const;

export const MAX_TRIES = RETRY_DELAYS_MS.length + 1;

/** The wait after try number `tries` (1-based) failed, or null when it was the last. */
export function retryDelayAfter(tries: number): number | null {
  return RETRY_DELAYS_MS[tries - 1] ?? null;
}
