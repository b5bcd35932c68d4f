// Reading account users: one by id, the account's list, and the person behind account users.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import { collectionSource } from '../list/sources';
import type { AccountUserRecord } from './records';
import { accountUserListSpec, accountUserToV4 } from './represent';
import { accountUserCollection, getAccountUser, getAccountUsers } from './store';

export async function findAccountUser(principal: Principal, rawId: string): Promise<AccountUserRecord> {
  const id = parseId('accountUser', rawId);
  const record = id ? await getAccountUser(principal.accountId, id) : null;
  if (!record) throw new NotFound('Account user not found');
  return record;
}

export async function listAccountUsers<Iface extends ApiInterface>(principal: Principal, params: URLSearchParams, iface: Iface) {
  const query = parseListQuery(params, accountUserListSpec, iface);
  return runList(query, collectionSource(accountUserCollection(principal.accountId)), accountUserToV4, {
    search: accountUserListSpec.search,
  });
}

// An account user never changes its user, so the pairing is safe to keep for the process's life.
const knownUsers = new Map<string, string>();
const KNOWN_USERS_MAX = 50_000;

/** The user behind each account user (the earlier interface shows `usr_` ids); absent ones are skipped. */
export async function usersOfAccountUsers(accountId: string, accountUserIds: readonly string[]): Promise<Record<string, string>> {
  const users: Record<string, string> = {};
  const unknown = accountUserIds.filter((id) => {
    const user = knownUsers.get(`${accountId}|${id}`);
    if (user) users[id] = user;
    return !user;
  });
  if (unknown.length === 0) return users;
  for (const record of await getAccountUsers(accountId, unknown)) {
    users[record.id] = record.user_id;
    if (knownUsers.size >= KNOWN_USERS_MAX) knownUsers.clear();
    knownUsers.set(`${accountId}|${record.id}`, record.user_id);
  }
  return users;
}
