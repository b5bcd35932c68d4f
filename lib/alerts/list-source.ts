// The list source of alerts (docs/api.md#lists) over the indexes of lib/alerts/store.ts. A page filtered by
// one indexed attribute (status, urgency, third-party id, tag, incident flag, subtype) or a view
// (a team's alerts, incidents, broadcasts) in creation order is one Query of offset+limit keys and
// an exact counter: its cost does not grow with the account. Any other query reads only the
// alerts of its most selective index (the whole alert partition when it has none) and the list
// engine filters, sorts and counts them.
import type { ListSource } from '../list/engine';
import type { Filter, ListQuery } from '../list/query';
import { inCreationOrder } from '../list/sources';
import type { AlertRecord } from './records';
import { counterOf, countLinkedAlerts, listAlerts, listAlertsWith, readAlertCounts, type IndexKind, type LinkKind } from './store';

export interface IndexedFilter {
  kind: IndexKind;
  /** Any of these values (repeated query parameters). */
  values: string[];
  /** True when the index answers the filter exactly; false when it only narrows the candidates. */
  exact: boolean;
}

/** How the filters of one representation map onto the indexes. */
export type FilterMapping = Record<string, (filter: Filter) => IndexedFilter | null>;

/** A view's implicit restriction: the incident and broadcast views, a team's alerts. */
export interface AlertView {
  kind: LinkKind;
  value: string;
  includes(alert: AlertRecord): boolean;
}

/** Creation order also with filters (the index answers them); a search reads everything. */
function creationOrder(query: ListQuery): { forward: boolean } | null {
  return query.q ? null : inCreationOrder({ ...query, filters: [] });
}

function byId(forward: boolean) {
  return (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (forward ? 1 : -1);
}

/** Alerts holding any of the values, merged in id order, at most `limit` of them. */
async function readAnyOf(accountId: string, index: { kind: IndexKind; values: string[] }, forward: boolean, limit?: number) {
  const lists = await Promise.all(index.values.map((value) => listAlertsWith(accountId, index.kind, value, forward, limit)));
  const merged = new Map<string, AlertRecord>();
  for (const list of lists) for (const alert of list) merged.set(alert.id, alert);
  const sorted = [...merged.values()].sort(byId(forward));
  return limit === undefined ? sorted : sorted.slice(0, limit);
}

async function totalOf(accountId: string, index: { kind: IndexKind; values: string[] }, counts: Record<string, number>): Promise<number> {
  const counter = counterOf(index.kind);
  if (counter) return index.values.reduce((sum, value) => sum + (counts[counter(value)] ?? 0), 0);
  if (index.kind === 'tag' && index.values.length === 1) return countLinkedAlerts(accountId, 'tag', index.values[0]);
  return (await readAnyOf(accountId, index, false)).length;
}

export function alertListSource(
  accountId: string,
  query: ListQuery,
  options: { mapping: FilterMapping; view?: AlertView },
): ListSource<AlertRecord> {
  const indexed = query.filters
    .map((filter) => options.mapping[filter.path]?.(filter) ?? null)
    .filter((index): index is IndexedFilter => index !== null && index.values.length > 0);

  /** The narrowest index to read candidates from: a view, else a third-party id, a tag, else the
   * indexed filter with the smallest counter. */
  async function narrowest(): Promise<{ kind: IndexKind; values: string[] } | null> {
    if (options.view) return { kind: options.view.kind, values: [options.view.value] };
    const preferred = indexed.find((i) => i.kind === 'thirdparty') ?? indexed.find((i) => i.kind === 'tag');
    if (preferred) return preferred;
    const counted = indexed.filter((i) => counterOf(i.kind));
    if (counted.length === 0) return null;
    if (counted.length === 1) return counted[0];
    const counts = await readAlertCounts(accountId);
    let best = counted[0];
    let bestSize = Infinity;
    for (const candidate of counted) {
      const size = candidate.values.reduce((sum, v) => sum + (counts[counterOf(candidate.kind)!(v)] ?? 0), 0);
      if (size < bestSize) [best, bestSize] = [candidate, size];
    }
    return best;
  }

  return {
    async all() {
      const index = await narrowest();
      if (!index) return listAlerts(accountId);
      const alerts = await readAnyOf(accountId, index, false);
      return options.view ? alerts.filter((alert) => options.view!.includes(alert)) : alerts;
    },
    async fast(q) {
      const order = creationOrder(q);
      if (!order) return null;
      const want = q.offset + q.limit;
      let index: { kind: IndexKind; values: string[] } | null = null;
      if (options.view) {
        if (q.filters.length > 0) return null;
        index = { kind: options.view.kind, values: [options.view.value] };
      } else if (q.filters.length === 0) {
        const [items, counts] = await Promise.all([
          listAlerts(accountId, { forward: order.forward, limit: want }),
          readAlertCounts(accountId),
        ]);
        return { page: items.slice(q.offset), total: counts.total ?? 0 };
      } else if (q.filters.length === 1 && indexed.length === 1 && indexed[0].exact) {
        index = indexed[0];
      }
      if (!index) return null;
      const [alerts, counts] = await Promise.all([
        readAnyOf(accountId, index, order.forward, want),
        counterOf(index.kind) ? readAlertCounts(accountId) : Promise.resolve({}),
      ]);
      const total = await totalOf(accountId, index, counts);
      return { page: alerts.slice(q.offset), total };
    },
  };
}

// ── filter mappings of the two representations ────────────────────────────────────────────────

const distinct = (values: unknown[]) => [...new Set(values.map(String))];

const equalsOnly =
  (kind: IndexKind, exact = true) =>
  (filter: Filter): IndexedFilter | null =>
    filter.op === 'equals' ? { kind, values: distinct(filter.values), exact } : null;

const containsOne =
  (kind: IndexKind, exact: boolean, read: (value: string) => string | null = (v) => v) =>
  (filter: Filter): IndexedFilter | null => {
    if (filter.op !== 'contains' && filter.op !== 'equals') return null;
    const values = distinct(filter.values).map(read);
    if (values.some((v) => v === null)) return null;
    return { kind, values: values as string[], exact: exact && values.length === 1 };
  };

const incidentFlag = (filter: Filter): IndexedFilter | null => {
  if (filter.op !== 'equals' || filter.values.length !== 1) return null;
  const value = String(filter.values[0]);
  return value === 'true' || value === '1' ? { kind: 'incident', values: ['true'], exact: true } : null;
};

const teamPrefixId = (value: string) => (value.startsWith('tem_') ? value.slice(4).toUpperCase() : null);

export const V4_FILTERS: FilterMapping = {
  status: equalsOnly('status'),
  urgency: equalsOnly('urgency'),
  thirdparty_id: equalsOnly('thirdparty'),
  tag_list: containsOne('tag', true),
  // The team link also lists alerts assigned to the team: it narrows, the engine decides.
  destination_team_ids: containsOne('team', false),
  'meta.incident': incidentFlag,
};

export const EARLIER_FILTERS: FilterMapping = {
  status: equalsOnly('status'),
  urgency: equalsOnly('urgency'),
  thirdparty_id: equalsOnly('thirdparty'),
  tags: containsOne('tag', true),
  subtype: (filter) =>
    filter.op === 'equals' && filter.values.every((v) => v !== 'alert')
      ? { kind: 'subtype', values: distinct(filter.values), exact: true }
      : null,
  d_team_id: (filter) => {
    if (filter.op !== 'equals') return null;
    const values = distinct(filter.values).map(teamPrefixId);
    return values.every((v) => v) ? { kind: 'team', values: values as string[], exact: false } : null;
  },
  destination_ids: containsOne('team', false, teamPrefixId),
  'meta.incident': incidentFlag,
};
