// Browser push subscriptions of an account user (issue 12, docs/api.md#push-subscriptions):
//   GET    /api/v4/account_users/:id/push_subscriptions              the person's subscriptions
//   POST   /api/v4/account_users/:id/push_subscriptions              register one (the same endpoint again replaces it)
//   DELETE /api/v4/account_users/:id/push_subscriptions?endpoint=…   remove the browser's own
//   DELETE /api/v4/account_users/:id/push_subscriptions/:subscription_id
// By the person themself or an admin (anyone else: 403); another account's user is a 404. The
// keys are stored for the push provider and never shown again. A person keeps at most
// MAX_SUBSCRIPTIONS browsers: registering one more forgets the oldest.
import { Forbidden, Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import { now } from '../clock';
import { canonicalAddress, forbiddenReason } from '../outbound';
import { config } from '../config';
import {
  listPushSubscriptions,
  putPushSubscription,
  removePushSubscription,
  type PushSubscriptionRecord,
} from '../notify/push-subscription-store';
import { vapidKeys } from '../notify/vapid-keys';
import { webPushEnabled } from '../notify/providers/web-push';
import { pushSubscriptionInput } from './push-subscription-schemas';
import type { AccountUserRecord } from './records';
import { findAccountUser } from './read-account-users';
import type * as z from 'zod';
import type { PushSubscriptionV4 } from './push-subscription-schemas';

export const MAX_SUBSCRIPTIONS = 10;

async function ownerFor(principal: Principal, rawId: string): Promise<AccountUserRecord> {
  const target = await findAccountUser(principal, rawId);
  if (target.id !== principal.accountUserId && !principal.roles.admin) {
    throw new Forbidden("Only the account user themselves or an admin may manage a person's push subscriptions");
  }
  return target;
}

export function pushSubscriptionToV4(record: PushSubscriptionRecord): z.input<typeof PushSubscriptionV4> {
  return {
    id: record.id,
    account_id: record.account_id,
    account_user_id: record.account_user_id,
    endpoint: record.endpoint,
    expiration_time: record.expiration_time,
    user_agent: record.user_agent,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export async function listPushSubscriptionsOf(principal: Principal, rawId: string) {
  const owner = await ownerFor(principal, rawId);
  const records = await listPushSubscriptions(owner.account_id, owner.id);
  return { data: records.map(pushSubscriptionToV4), has_more: false, total_count: records.length };
}

export async function createPushSubscription(principal: Principal, rawId: string, body: unknown): Promise<PushSubscriptionRecord> {
  const owner = await ownerFor(principal, rawId);
  const input = parseInput(pushSubscriptionInput, body);
  const host = new URL(input.endpoint).hostname.replace(/^\[|\]$/g, '');
  const literal = canonicalAddress(host);
  const refused = literal && !config().ALLOW_PRIVATE_AUTOMATION_TARGETS ? forbiddenReason(literal) : null;
  if (refused) throw new Invalid(`endpoint must be a push service's address, not ${refused}`);

  const existing = await listPushSubscriptions(owner.account_id, owner.id);
  const same = existing.find((s) => s.endpoint === input.endpoint);
  const at = new Date(now()).toISOString();
  const record: PushSubscriptionRecord = {
    id: same?.id ?? newId(),
    account_id: owner.account_id,
    account_user_id: owner.id,
    endpoint: input.endpoint,
    keys: { p256dh: input.keys.p256dh.replace(/=+$/, ''), auth: input.keys.auth.replace(/=+$/, '') },
    expiration_time: input.expiration_time ?? input.expirationTime ?? null,
    user_agent: input.user_agent ?? null,
    created_at: same?.created_at ?? at,
    updated_at: at,
  };
  await putPushSubscription(record);
  if (!same) {
    const others = existing.filter((s) => s.endpoint !== input.endpoint);
    for (const old of others.slice(0, Math.max(0, others.length + 1 - MAX_SUBSCRIPTIONS))) {
      await removePushSubscription(old.account_id, old.account_user_id, old.endpoint);
    }
  }
  return record;
}

/** DELETE on the collection: `endpoint` (query) names the browser's subscription. */
export async function deletePushSubscriptionByEndpoint(principal: Principal, rawId: string, query: URLSearchParams): Promise<void> {
  const owner = await ownerFor(principal, rawId);
  const endpoint = query.get('endpoint')?.trim();
  if (!endpoint) throw new Invalid("endpoint can't be blank (the subscription's endpoint URL, as a query parameter)");
  if (!(await removePushSubscription(owner.account_id, owner.id, endpoint))) throw new NotFound('Push subscription not found');
}

export async function deletePushSubscription(principal: Principal, rawId: string, subscriptionId: string): Promise<void> {
  const owner = await ownerFor(principal, rawId);
  const found = (await listPushSubscriptions(owner.account_id, owner.id)).find((s) => s.id === subscriptionId);
  if (!found || !(await removePushSubscription(owner.account_id, owner.id, found.endpoint))) {
    throw new NotFound('Push subscription not found');
  }
}

/** GET /api/v4/web_push: what a console needs to subscribe a browser (any signed-in user may read it). */
export async function readWebPush() {
  return { enabled: webPushEnabled(), vapid_public_key: (await vapidKeys()).publicKey };
}
