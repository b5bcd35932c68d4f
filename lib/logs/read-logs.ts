// GET /log/:id, GET /log (docs/api.md#lists) and an object's timeline (GET /log?owner_id=…,
// GET /incident/:id/logs). A timeline is listed oldest first unless a sort is given, and is read
// from the owner's index partition with its owner count (one GetItem, lib/logs/store.ts): a page
// costs the same for an owner of ten logs and one of 100 000.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId, parsePrefixedId } from '../ids';
import { runList, type ListSource } from '../list/engine';
import { parseListQuery, type ApiInterface, type ListQuery } from '../list/query';
import { inCreationOrder } from '../list/sources';
import type { LogRecord } from './records';
import { logListSpec, logToEarlier } from './represent';
import { countAllLogs, countLogsOfOwner, getLog, listLogs as listStoredLogs, listLogsOfOwner as listStoredLogsOfOwner } from './store';

export async function findLog(principal: Principal, rawId: string): Promise<LogRecord> {
  const id = parseId('log', rawId);
  const log = id ? await getLog(principal.accountId, id) : null;
  if (!log) throw new NotFound('Log not found');
  return log;
}

const CREATION_ORDER_PATHS = new Set(['id', 'createdAt']);

function ownerSource(accountId: string, ownerId: string, fixedOwner: boolean): ListSource<LogRecord> {
  return {
    all: (limit) => listStoredLogsOfOwner(accountId, ownerId, { limit }),
    // Other filters read the owner's partition within the read budget; its owner count says up front
    // when that would be too much.
    size: () => countLogsOfOwner(accountId, ownerId),
    async fast(q) {
      const otherFilters = q.filters.filter((f) => !(f.path === 'owner_id' && !fixedOwner));
      if (otherFilters.length > 0 || q.q) return null;
      if (q.sort && !CREATION_ORDER_PATHS.has(q.sort.path)) return null;
      const forward = q.sort ? q.sort.direction === 'asc' : true;
      const [page, total] = await Promise.all([
        listStoredLogsOfOwner(accountId, ownerId, { forward, limit: q.offset + q.limit }),
        countLogsOfOwner(accountId, ownerId),
      ]);
      return { page: page.slice(q.offset), total };
    },
  };
}

/** No log: what an owner_id that is not a prefix id owns (every log's owner is one, lib/logs/create-log.ts).
 * Answered without a read: such a value may be longer than a key can hold. */
const NO_LOGS: ListSource<LogRecord> = { all: () => Promise.resolve([]), size: () => Promise.resolve(0) };

/** Every log of the account; an unfiltered page is one Query plus the counters (countAllLogs). */
function accountLogsSource(accountId: string): ListSource<LogRecord> {
  return {
    all: (limit) => listStoredLogs(accountId, { limit }),
    size: () => countAllLogs(accountId),
    async fast(q) {
      const order = inCreationOrder(q);
      if (!order) return null;
      const [items, total] = await Promise.all([
        listStoredLogs(accountId, { forward: order.forward, limit: q.offset + q.limit }),
        countAllLogs(accountId),
      ]);
      return { page: items.slice(q.offset), total };
    },
  };
}

/** A timeline reads oldest first: the order things happened. */
function oldestFirst<Iface extends ApiInterface>(query: ListQuery<Iface>): ListQuery<Iface> {
  return query.sort ? query : { ...query, sort: { path: 'id', type: 'string', direction: 'asc' } };
}

export async function listLogs<Iface extends ApiInterface>(principal: Principal, params: URLSearchParams, iface: Iface) {
  let query = parseListQuery(params, logListSpec, iface);
  const owner = query.filters.find((f) => f.path === 'owner_id' && f.op === 'equals' && f.values.length === 1);
  let source: ListSource<LogRecord>;
  if (owner) {
    query = oldestFirst(query);
    const ownerId = String(owner.values[0]);
    source = parsePrefixedId(ownerId) ? ownerSource(principal.accountId, ownerId, false) : NO_LOGS;
  } else {
    source = accountLogsSource(principal.accountId);
  }
  return runList(query, source, logToEarlier, { search: logListSpec.search });
}

/** The logs an object owns (its timeline), oldest first. */
export async function listLogsOfOwner<Iface extends ApiInterface>(
  principal: Principal,
  ownerPrefixId: string,
  params: URLSearchParams,
  iface: Iface,
) {
  const query = oldestFirst(parseListQuery(params, logListSpec, iface));
  return runList(query, ownerSource(principal.accountId, ownerPrefixId, true), logToEarlier, {
    search: logListSpec.search,
  });
}
