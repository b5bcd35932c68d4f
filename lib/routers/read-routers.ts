// Reading routers: one by id (ULID or rtr_ prefix id) and the account's list (v4).
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { normalizeIdFilters } from '../list/id-filters';
import { parseListQuery } from '../list/query';
import { collectionSource } from '../list/sources';
import type { RouterRecord } from './records';
import { routerListSpec, routerToV4 } from './represent';
import { getRouter, routerCollection } from './store';

/** The account's router named by `rawId`, or null. */
export async function routerNamed(accountId: string, rawId: string): Promise<RouterRecord | null> {
  const id = parseId('router', rawId);
  return id ? getRouter(accountId, id) : null;
}

export async function findRouter(principal: Principal, rawId: string): Promise<RouterRecord> {
  const record = await routerNamed(principal.accountId, rawId);
  if (!record) throw new NotFound('Router not found');
  return record;
}

export async function listRouters(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(
    normalizeIdFilters(params, {
      id: 'router',
      default_receiver_account_user_id: 'accountUser',
      default_receiver_router_id: 'router',
      default_receiver_team_id: 'team',
    }),
    routerListSpec,
    'v4',
  );
  return runList(query, collectionSource(routerCollection(principal.accountId)), routerToV4, { search: routerListSpec.search });
}
