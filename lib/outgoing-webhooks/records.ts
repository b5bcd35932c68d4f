// One delivery of one alert event to one receiver (docs/api.md#outgoing-webhooks, docs/api.md#chat-webhooks):
// an outgoing webhook integration (the event as JSON, signed) or one of a team's chat webhooks (a card
// or a follow-up line in that chat's format). Both are tried, retried, logged and re-driven the same
// way (deliver.ts); only the receiver and the body differ. The exact body sent on every try is kept
// (so the signature and X-Webhook-Id are the same each time), with the delivery's state.
import type { ChatWebhookType } from '../chat-cards/platforms';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

interface DeliveryState {
  /** Derived from the event's timeline entry and the receiver: also the X-Webhook-Id. */
  id: string;
  account_id: string;
  alert_id: string;
  event: string;
  /** The JSON text POSTed. */
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

/** To an outgoing webhook integration: {"type": …, "data": <the alert, earlier representation>}. Deliveries stored before chat cards have no kind. */
export interface WebhookDelivery extends DeliveryState {
  kind?: 'outgoing_webhook';
  integration_id: string;
}

/** To one of a team's chat webhooks: a card when the alert was assigned to the team, else a follow-up line. */
export interface ChatDelivery extends DeliveryState {
  kind: 'chat';
  team_id: string;
  chat_type: ChatWebhookType;
  /** The webhook's URL when the delivery was made: a try goes out only while the team still has it. */
  url: string;
  message: 'card' | 'follow_up';
}

export type DeliveryRecord = WebhookDelivery | ChatDelivery;

/** The state of a delivery made now, before its first try. */
export function newDeliveryState(nowMs: number) {
  const now = new Date(nowMs).toISOString();
  return { status: 'pending', attempts: 0, due_at: nowMs, last_status: null, last_error: null, created_at: now, updated_at: now } as const;
}

/** Where a try goes, from the delivery's receiver as it is now. */
export interface Receiver {
  /** The prefix id that owns the try's log (int_…, tem_…). */
  owner: string;
  url: string;
  /** What logs show instead of the URL, when the URL itself is a secret. */
  shownUrl?: string;
  headers: Record<string, string>;
  auth: { username: string; password: string } | null;
  /** Texts that never appear in a log. */
  secrets: string[];
  /** The words before "to <url>" in the log's content. */
  what: string;
  /** Further fields of the log's data. */
  data: Record<string, unknown>;
}

/** The receiver, or why the delivery is cancelled (logged on `owner` when it still exists). */
export type ReceiverLookup = { receiver: Receiver } | { cancelled: string; owner: string | null; data: Record<string, unknown> };

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
