// GET /api/v4/notifications[/:id] and GET /notification[/:id] (docs/api.md#lists, docs/api.md#escalation-and-notifications): read only. A page
// of one alert's or one account user's notifications in creation order is one Query of its index
// partition plus its owner count (one GetItem); unfiltered pages are one Query plus the counter; any other filter reads the narrowest
// of those and the list engine filters, sorts and counts.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { isUlid, parseId } from '../ids';
import { runList, type ListSource } from '../list/engine';
import { normalizeIdFilters, prefixIdFilters } from '../list/id-filters';
import { parseListQuery, type ListQuery } from '../list/query';
import { collectionSource, inCreationOrder } from '../list/sources';
import type { NotificationRecord } from './records';
import { notificationEarlierListSpec, notificationToEarlier, notificationToV4, notificationV4ListSpec } from './represent';
import {
  countNotificationsOfAccountUser,
  countNotificationsOfAlert,
  getNotification,
  listNotificationsOfAccountUser,
  listNotificationsOfAlert,
  notificationCollection,
} from './store';

export async function findNotification(principal: Principal, rawId: string): Promise<NotificationRecord> {
  const id = parseId('notification', rawId);
  const found = id ? await getNotification(principal.accountId, id) : null;
  if (!found) throw new NotFound('Notification not found');
  return found;
}

interface Narrowing {
  kind: 'alert' | 'account_user';
  id: string;
  /** The filter path that named it (dropped from the query when the index answers it exactly). */
  path: string | null;
}

function indexSource(accountId: string, narrowing: Narrowing, fixed: boolean): ListSource<NotificationRecord> {
  const read = (range: { forward?: boolean; limit?: number }) =>
    narrowing.kind === 'alert'
      ? listNotificationsOfAlert(accountId, narrowing.id, range)
      : listNotificationsOfAccountUser(accountId, narrowing.id, range);
  const count = () =>
    narrowing.kind === 'alert'
      ? countNotificationsOfAlert(accountId, narrowing.id)
      : countNotificationsOfAccountUser(accountId, narrowing.id);
  return {
    all: (limit) => read({ limit }),
    size: count,
    async fast(q: ListQuery) {
      const rest = q.filters.filter((f) => f.path !== narrowing.path);
      const order = inCreationOrder({ ...q, filters: rest });
      if (!order || (!fixed && q.filters.length - rest.length !== 1)) return null;
      const [page, total] = await Promise.all([read({ forward: order.forward, limit: q.offset + q.limit }), count()]);
      return { page: page.slice(q.offset), total };
    },
  };
}

/** No notification: what a filter naming no alert or account user (not an id) selects. Answered
 * without a read: such a value may be longer than a key can hold. */
const NO_NOTIFICATIONS: ListSource<NotificationRecord> = { all: () => Promise.resolve([]), size: () => Promise.resolve(0) };

function single(query: ListQuery, path: string): string | null {
  const filter = query.filters.find((f) => f.path === path && f.op === 'equals' && f.values.length === 1);
  return filter ? String(filter.values[0]) : null;
}

export async function listNotificationsV4(principal: Principal, params: URLSearchParams) {
  const accountId = principal.accountId;
  const query = parseListQuery(
    normalizeIdFilters(params, { alert_id: 'alert', account_user_id: 'accountUser', workflow_id: 'workflow' }),
    notificationV4ListSpec,
    'v4',
  );
  const alertId = single(query, 'alert_id');
  const accountUserId = single(query, 'account_user_id');
  const namesNothing = [alertId, accountUserId].some((id) => id !== null && !isUlid(id));
  const source = namesNothing
    ? NO_NOTIFICATIONS
    : alertId
      ? indexSource(accountId, { kind: 'alert', id: alertId, path: 'alert_id' }, false)
      : accountUserId
        ? indexSource(accountId, { kind: 'account_user', id: accountUserId, path: 'account_user_id' }, false)
        : collectionSource(notificationCollection(accountId));
  return runList(query, source, notificationToV4, { search: notificationV4ListSpec.search });
}

export async function listNotificationsEarlier(principal: Principal, params: URLSearchParams) {
  const accountId = principal.accountId;
  const normalized = prefixIdFilters(params, { source_id: 'alert', user_id: 'user', workflow_id: 'workflow', group_id: 'notification' });
  const query = parseListQuery(normalized, notificationEarlierListSpec, 'earlier');
  // alert_id / account_user_id (the v4 names) narrow the list exactly; source_id=alt_… narrows it too.
  const alertAlias = params.get('alert_id') !== null ? parseId('alert', params.get('alert_id')) : undefined;
  const accountUserAlias = params.get('account_user_id') !== null ? parseId('accountUser', params.get('account_user_id')) : undefined;
  if (alertAlias === null || accountUserAlias === null) return { data: [], has_more: false, total_count: 0 };
  const sourceFilter = single(query, 'source_id');
  const alertFromSource = sourceFilter ? parseId('alert', sourceFilter) : null;
  let source: ListSource<NotificationRecord>;
  if (alertAlias && accountUserAlias) {
    source = {
      all: async () => (await listNotificationsOfAlert(accountId, alertAlias)).filter((n) => n.account_user_id === accountUserAlias),
      // The alert's whole partition is read and filtered: its owner count keeps that within the budget.
      size: () => countNotificationsOfAlert(accountId, alertAlias),
    };
  } else if (alertAlias) source = indexSource(accountId, { kind: 'alert', id: alertAlias, path: null }, true);
  else if (accountUserAlias) source = indexSource(accountId, { kind: 'account_user', id: accountUserAlias, path: null }, true);
  else if (alertFromSource) source = indexSource(accountId, { kind: 'alert', id: alertFromSource, path: 'source_id' }, false);
  else source = collectionSource(notificationCollection(accountId));
  return runList(query, source, notificationToEarlier, { search: notificationEarlierListSpec.search });
}
