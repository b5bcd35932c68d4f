// GET /api/v4/audit_events and /api/v4/audit_events/:id (docs/api.md#audit-trail): admins only.
// A list reads one partition (store.ts): the narrowest key filter's index, or the account's trail,
// within the id range of its created_at bounds, newest first; it reads the page and counts the range.
// Filters beyond one key filter (a second key, actor_type, ip, q) are checked on the events of that
// partition, within the list read budget (lib/list/engine.ts).
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId, ulidBoundsOf } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type Filter, type ListQuery } from '../list/query';
import { auditEventListSpec, auditEventToV4 } from './represent';
import { AUDIT_KEYS, countEvents, getAuditEvent, readEvents, type AuditKey, type AuditRead, type AuditEventRecord } from './store';

export async function findAuditEvent(principal: Principal, rawId: string): Promise<AuditEventRecord> {
  requireAdmin(principal, 'read the audit trail');
  const id = parseId('auditEvent', rawId);
  const event = id ? await getAuditEvent(principal.accountId, id) : null;
  if (!event) throw new NotFound('Audit event not found');
  return event;
}

/** The id range of created_at filters (every one must hold), or null when a filter is not a range. */
function idRange(filters: Filter[]): [string, string] | null | undefined {
  let low = '0';
  let high = '~';
  const raise = (id: string) => (low = id > low ? id : low);
  const lower = (id: string) => (high = id < high ? id : high);
  for (const filter of filters) {
    const [a, b] = filter.values as number[];
    if (filter.values.length !== (filter.op === 'between' ? 2 : 1)) return null;
    if (filter.op === 'gte') raise(ulidBoundsOf(a).low);
    else if (filter.op === 'gt') raise(ulidBoundsOf(a + 1).low);
    else if (filter.op === 'lte') lower(ulidBoundsOf(a).high);
    else if (filter.op === 'lt') lower(ulidBoundsOf(a - 1).high);
    else if (filter.op === 'between' || filter.op === 'equals') {
      raise(ulidBoundsOf(a).low);
      lower(ulidBoundsOf(filter.op === 'between' ? b : a).high);
    } else return null;
  }
  return filters.length > 0 ? [low, high] : undefined;
}

/** The partition and range a query reads, and the filters left to check on what it reads. */
function planRead(accountId: string, query: ListQuery): { read: AuditRead; rest: Filter[] } {
  const keyed = (Object.keys(AUDIT_KEYS) as AuditKey[])
    .map((key) => query.filters.find((f) => f.path === key && f.op === 'equals' && f.values.length === 1))
    .find((filter) => filter !== undefined);
  const dated = query.filters.filter((f) => f.path === 'created_at');
  const range = idRange(dated);
  const forward = query.sort?.direction === 'asc';
  const read: AuditRead = {
    accountId,
    by: keyed ? { key: keyed.path as AuditKey, value: String(keyed.values[0]) } : undefined,
    ids: range ?? undefined,
    forward,
  };
  const rest = query.filters.filter((f) => f !== keyed && (range === null || f.path !== 'created_at'));
  return { read, rest };
}

const IN_ID_ORDER = new Set(['id', 'created_at']);

export async function listAuditEvents(principal: Principal, params: URLSearchParams) {
  requireAdmin(principal, 'read the audit trail');
  const query = parseListQuery(params, auditEventListSpec, 'v4');
  const { read, rest } = planRead(principal.accountId, query);
  const ordered = !query.sort || IN_ID_ORDER.has(query.sort.path);
  const source = {
    all: (limit?: number) => readEvents(read, limit ?? Infinity),
    // One key filter and created_at ranges, in id order: the page and its count from the partition alone.
    fast: async () => {
      if (rest.length > 0 || query.q || !ordered) return null;
      const [events, total] = await Promise.all([readEvents(read, query.offset + query.limit), countEvents(read)]);
      return { page: events.slice(query.offset), total };
    },
    indexable: 'filter by one of actor_id, object_type, object_id or action, with a created_at range',
  };
  return runList(query, source, auditEventToV4, { search: auditEventListSpec.search });
}
