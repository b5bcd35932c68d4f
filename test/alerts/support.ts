// Helpers for the alert tests: objects that other resources own (teams, routers, schedules) are
// inserted straight into the store, so these tests do not depend on those resources' endpoints;
// statuses that only the routing pipeline produces (dropped, suppressed, queued) are set the same way.
import type { ApiClient } from '../support/api-client';
import { newId } from '../../lib/ids';
import { entityStore, type Entity } from '../../lib/store/entity-store';
import { changeStatus } from '../../lib/alerts/store';
import type { AlertStatus } from '../../lib/alerts/records';

export const ALL_STATUSES: AlertStatus[] = ['queued', 'open', 'acknowledged', 'resolved', 'dropped', 'suppressed', 'archived'];

export interface Me {
  accountId: string;
  accountUserId: string;
  userId: string;
}

export async function whoAmI(client: ApiClient): Promise<Me> {
  // The bootstrap admin is the account's first account user; for other clients use their key's owner.
  const keys = await client.get('/api/v4/api_keys');
  if (keys.status === 200 && keys.body.data.length > 0) {
    const accountUserId = keys.body.data[0].account_user_id;
    const acu = await client.get(`/api/v4/account_users/${accountUserId}`);
    return { accountId: acu.body.account_id, accountUserId, userId: acu.body.user_id };
  }
  const list = await client.get('/api/v4/account_users?limit=100');
  const acu = list.body.data[list.body.data.length - 1];
  return { accountId: acu.account_id, accountUserId: acu.id, userId: acu.user_id };
}

export async function seedTeam(accountId: string, members: string[] = [], admins: string[] = members): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  await entityStore<Entity>({ kind: 'team' }).insert({
    id,
    account_id: accountId,
    name: `Team ${id.slice(-4)}`,
    member_account_user_ids: members,
    admin_account_user_ids: admins,
    created_at: now,
    updated_at: now,
    version: 1,
  } as never);
  return id;
}

export async function seedObject(accountId: string, type: 'RTR' | 'SKD'): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  await entityStore<Entity>({ kind: type === 'RTR' ? 'router' : 'schedule' }).insert({
    id,
    account_id: accountId,
    name: `${type} ${id.slice(-4)}`,
    created_at: now,
    updated_at: now,
    version: 1,
  } as never);
  return id;
}

/** Puts an alert in any status, as the routing pipeline would (one conditional write, counters kept). */
export async function forceStatus(accountId: string, alertId: string, status: AlertStatus): Promise<void> {
  const call = newId();
  const done = await changeStatus(accountId, alertId, {
    from: ALL_STATUSES,
    to: status,
    now: new Date().toISOString(),
    request: { key: call, call },
  });
  if (done.outcome !== 'applied') throw new Error(`could not force ${alertId} to ${status}`);
}

export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
