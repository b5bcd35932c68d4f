// Browser push subscriptions of account users (Web Push), the addresses of the push channel
// (lib/notify/ACCESS-PATTERNS.md): one item per subscription, keyed by a hash of its endpoint so
// that registering the same browser again replaces it.
//   subscription   A#<acc>#PUSH#<account user id> / <sha256(endpoint), base64url>
import { createHash } from 'node:crypto';
import { deleteItem, fromItem, putItem, queryItems } from '../store/items';

export interface PushSubscriptionRecord {
  id: string;
  account_id: string;
  account_user_id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** When the push service says the subscription ends (ms since the epoch), if it says. */
  expiration_time: number | null;
  user_agent: string | null;
  created_at: string;
  updated_at: string;
}

const partition = (accountId: string, accountUserId: string) => `A#${accountId}#PUSH#${accountUserId}`;
const endpointKey = (endpoint: string) => createHash('sha256').update(endpoint).digest('base64url');
const keyOf = (accountId: string, accountUserId: string, endpoint: string) => ({
  pk: partition(accountId, accountUserId),
  sk: endpointKey(endpoint),
});

/** Every subscription of one person (a handful: one per browser). */
export async function listPushSubscriptions(accountId: string, accountUserId: string): Promise<PushSubscriptionRecord[]> {
  const items = await queryItems(partition(accountId, accountUserId), { limit: 200 });
  return items.map((item) => fromItem<PushSubscriptionRecord>(item)).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** Stores the subscription, replacing one with the same endpoint. */
export async function putPushSubscription(record: PushSubscriptionRecord): Promise<void> {
  await putItem({ ...keyOf(record.account_id, record.account_user_id, record.endpoint), ...record });
}

/** Removes the subscription with that endpoint; the removed one, or null when there was none. */
export async function removePushSubscription(
  accountId: string,
  accountUserId: string,
  endpoint: string,
): Promise<PushSubscriptionRecord | null> {
  const removed = await deleteItem(keyOf(accountId, accountUserId, endpoint));
  return removed ? fromItem<PushSubscriptionRecord>(removed) : null;
}
