import type { Principal } from '../auth/principal';
import { NotFound } from '../http/errors';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import { ENTITY_TYPES } from '../store/items';
import { partitionSource } from '../store/partition-source';
import type { AccountUserRecord } from './records';
import { accountUserListSpec, accountUserToV4 } from './represent';
import { getAccountUser } from './store';

export async function findAccountUser(principal: Principal, rawId: string): Promise<AccountUserRecord> {
  const id = parseId('accountUser', rawId);
  const record = id ? await getAccountUser(principal.accountId, id) : null;
  if (!record) throw new NotFound('Account user not found');
  return record;
}

export async function listAccountUsers(principal: Principal, params: URLSearchParams, iface: ApiInterface) {
  const query = parseListQuery(params, accountUserListSpec, iface);
  const source = partitionSource<AccountUserRecord>(principal.accountId, ENTITY_TYPES.accountUser);
  return runList(query, source, accountUserToV4, { search: accountUserListSpec.search });
}
