// The list source of alerts (docs/api.md#lists) over the indexes of the alert store files. A page filtered by
// one indexed attribute (status, urgency, third-party id, tag, incident flag, subtype) or a view
// (a team's alerts, incidents, broadcasts) in creation order is one Query of offset+limit keys and
// an exact counter: its cost does not grow with the account. Any other query reads only the
// alerts of its most selective index (the whole alert partition when it has none) and the list
// engine filters, sorts and counts them.
import { ulidBoundsOf, ulidTime } from '../ids';
import { OverBudget, listReadBudget, type ListSource } from '../list/engine';
import type { Filter, ListQuery } from '../list/query';
import { inCreationOrder } from '../list/sources';
import { ALERT_STATUSES, type AlertRecord } from './records';
import { countAlertsCreatedIn, CREATED_SLACK_MS, type CreatedRange } from './created-at-store';
import { countLinkedAlerts, type LinkKind } from './link-store';
import {
  counterOf,
  countTeamAlertsWithStatus,
  getAlerts,
  listAlerts,
  listAlertsCreatedIn,
  listAlertsInOrder,
  listAlertsWith,
  readAlertCounts,
  type IndexKind,
} from './store';
import { dropStaleWordItem, groupOf, GROUP_LENGTH, readWordEntries, readWordItems, rewriteWordItems, wordsOf } from './word-store';

export interface IndexedFilter {
  kind: IndexKind;
  /** Any of these values (repeated query parameters). */
  values: string[];
  /** True when the index answers the filter exactly; false when it only narrows the candidates. */
  exact: boolean;
}

/** How the filters of one representation map onto the indexes. */
export type FilterMapping = Record<string, (filter: Filter) => IndexedFilter | null>;

/** The attribute names of one representation that the combined indexes serve. */
export interface IndexedPaths {
  created: string;
  updated: string;
  tiny: string;
  /** The destination teams (v4 only: the earlier interface shows teams with users). */
  destinationTeams?: string;
}

export const V4_PATHS: IndexedPaths = {
  created: 'created_at',
  updated: 'updated_at',
  tiny: 'tiny_id',
  destinationTeams: 'destination_team_ids',
};
export const EARLIER_PATHS: IndexedPaths = { created: 'createdAt', updated: 'updatedAt', tiny: 'tinyId' };

/** A view's implicit restriction: the incident and broadcast views, a team's alerts. */
export interface AlertView {
  kind: LinkKind;
  value: string;
  includes(alert: AlertRecord): boolean;
}

/** What makes an alert query indexable: the end of the over-budget message. */
const INDEXABLE =
  'status, urgency, status with urgency, destination_team_ids with or without status, created_at between two instants with or ' +
  'without status, q with words of at least 3 characters, tag_list, thirdparty_id, or sort by created_at, updated_at or tiny_id';

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

/**
 * The first `want` alerts of an index that hold for `check`: link items follow an alert's writes and
 * may lag behind it (a crash, two transitions racing in two processes), so each candidate is checked
 * against the alert itself, and the read goes on while the page is short.
 */
async function readChecked(
  accountId: string,
  index: { kind: IndexKind; values: string[] },
  forward: boolean,
  want: number,
  check: (alert: AlertRecord) => boolean,
): Promise<CheckedRead> {
  return (await readCheckedWithin(accountId, index, forward, want, check, Number.POSITIVE_INFINITY))!; // unbounded: never null
}

interface CheckedRead {
  page: AlertRecord[];
  stale: number;
}

/** readChecked, reading at most `maxRead` candidates of each value: null once that is not enough
 * (candidates the check leaves out are then not stale but, say, of other statuses). */
async function readCheckedWithin(
  accountId: string,
  index: { kind: IndexKind; values: string[] },
  forward: boolean,
  want: number,
  check: (alert: AlertRecord) => boolean,
  maxRead: number,
): Promise<CheckedRead | null> {
  for (let limit = want; ; limit = Math.min(limit * 4, maxRead)) {
    const read = await readAnyOf(accountId, index, forward, limit);
    const page = read.filter(check);
    if (page.length >= want || read.length < limit) return { page: page.slice(0, want), stale: read.length - page.length };
    if (limit >= maxRead) return null;
  }
}

/** Status and urgency are read from a keys-only index (gsi4), then the alerts: one that moved in
 * between is checked out of the page. The other kinds return the alerts as their index or links hold them. */
function heldValue(index: { kind: IndexKind; values: string[] }): ((alert: AlertRecord) => boolean) | null {
  if (index.kind === 'status') return (alert) => index.values.includes(alert.status);
  if (index.kind === 'urgency') return (alert) => index.values.includes(alert.urgency);
  return null;
}

async function totalOf(accountId: string, index: { kind: IndexKind; values: string[] }, counts: Record<string, number>): Promise<number> {
  const counter = counterOf(index.kind);
  if (counter) return index.values.reduce((sum, value) => sum + (counts[counter(value)] ?? 0), 0);
  if (index.kind === 'tag' && index.values.length === 1) return countLinkedAlerts(accountId, 'tag', index.values[0]);
  return (await readAnyOf(accountId, index, false)).length;
}

// ── q over the word index ────────────────────────────────────────────────────────────────────

/** `q` as the word index reads it: every word of q begins a word of the title or the description. */
export function wordsMatch(alert: Pick<AlertRecord, 'title' | 'description'>, q: string): boolean {
  const words = [...wordsOf(alert.title ?? ''), ...wordsOf(alert.description ?? '')];
  return wordsOf(q).every((term) => words.some((word) => word.startsWith(term)));
}

const WORD_ITEMS_PER_ALERT_READ = 10;

const isLong = (term: string) => Array.from(term).length >= GROUP_LENGTH;

/** Ids of the alerts whose word items hold every word of q, newest first; null when q has no word of
 * 3+ characters. Throws OverBudget when a word's group holds more items than the budget. */
async function wordCandidates(accountId: string, q: string, budget: number): Promise<string[] | null> {
  // Longest word first: usually the rarest. Its group is read whole (at most 10 × budget items), and
  // each item carries its alert's word list: the other words are checked on it in memory, so a
  // common word beside a rare one costs nothing more than the rare one's group.
  const all = [...new Set(wordsOf(q))];
  const terms = all.filter(isLong).sort((a, b) => b.length - a.length);
  if (terms.length === 0) return null;
  const several = all.length > 1;
  const prefixOf = (term: string) => Array.from(term).slice(0, 40).join('');
  const begins = (words: string[], term: string) => words.some((word) => word.startsWith(prefixOf(term)));
  const first = await readWordEntries(accountId, groupOf(terms[0]), budget * WORD_ITEMS_PER_ALERT_READ, several);
  if (!first) throw new OverBudget(budget, `q word "${terms[0]}" is in too many alerts: add a longer or rarer word`);
  const ids: string[] = [];
  let oldForm: string[] = [];
  for (const [id, { words, listed }] of first) {
    if (!begins(words, terms[0])) continue;
    if (!several) ids.push(id);
    else if (listed !== undefined) {
      const spaced = ` ${listed}`;
      if (all.every((term) => term === terms[0] || spaced.includes(` ${prefixOf(term)}`))) ids.push(id);
    } else oldForm.push(id);
  }
  // Items written before the word lists (until reindex-alerts rewrites them): every other long word
  // checked on those candidates' word items of its own group (BatchGet).
  for (const term of terms.slice(1)) {
    if (oldForm.length === 0) break;
    if (oldForm.length > budget) throw new OverBudget(budget, `q words "${terms.join(' ')}" are in too many alerts: add a rarer word`);
    const words = await readWordItems(accountId, groupOf(term), oldForm);
    oldForm = oldForm.filter((id) => begins(words.get(id) ?? [], term));
  }
  return [...ids, ...oldForm].sort().reverse();
}

/** Repairs word items that a read found not to hold for their alert: an absent alert's are removed, a
 * changed alert's rewritten from it as it is now (read repair). */
async function repairWords(accountId: string, q: string, stale: Array<{ id: string; alert: AlertRecord | null }>): Promise<void> {
  const groups = [...new Set(wordsOf(q).filter(isLong).map(groupOf))];
  const settled = Date.now() - 5 * 60_000;
  await Promise.all(
    stale.flatMap(({ id, alert }) => {
      if (alert) return [rewriteWordItems(alert, groups)];
      // An absent alert whose id is recent may be one being created (its words are written first).
      return ulidTime(id) > settled ? [] : groups.map((group) => dropStaleWordItem(accountId, id, group));
    }),
  );
}

// ── created_at ranges ────────────────────────────────────────────────────────────────────────

const MAX_ISO = '9999-12-31T23:59:59.999Z';

/**
 * The created_at filter as a range of ISO datetimes and alert ids; null for another comparison;
 * `'none'` when no instant is in it (a between written backwards, `lt` the epoch): no alert is, and
 * its id range would be one the table refuses.
 */
function createdRange(filter: Filter): Omit<CreatedRange, 'status'> | 'none' | null {
  const [a, b] = filter.values as number[];
  let low = 0;
  let high = Number.POSITIVE_INFINITY;
  switch (filter.op) {
    case 'between':
      [low, high] = [a, b];
      break;
    case 'gte':
    case 'gt':
    case 'lte':
    case 'lt':
      if (filter.values.length !== 1) return null;
      if (filter.op === 'gte') low = a;
      if (filter.op === 'gt') low = a + 1;
      if (filter.op === 'lte') high = a;
      if (filter.op === 'lt') high = a - 1;
      break;
    default:
      return null;
  }
  if (typeof low !== 'number' || typeof high !== 'number' || Number.isNaN(low) || Number.isNaN(high)) return null;
  if (low > high) return 'none';
  const finite = Number.isFinite(high);
  return {
    from: new Date(Math.max(0, low)).toISOString(),
    to: finite ? new Date(Math.max(0, high)).toISOString() : MAX_ISO,
    idFrom: ulidBoundsOf(low - CREATED_SLACK_MS).low,
    idTo: ulidBoundsOf(finite ? high + CREATED_SLACK_MS : 2 ** 48 - 1).high,
  };
}

export function alertListSource(
  accountId: string,
  query: ListQuery,
  options: { mapping: FilterMapping; view?: AlertView; paths?: IndexedPaths },
): ListSource<AlertRecord> {
  const paths = options.paths ?? V4_PATHS;
  const indexed = query.filters
    .map((filter) => options.mapping[filter.path]?.(filter) ?? null)
    .filter((index): index is IndexedFilter => index !== null && index.values.length > 0);
  let counted: Promise<Record<string, number>> | undefined;
  const counts = () => (counted ??= readAlertCounts(accountId));
  const budget = listReadBudget();
  /** Set once the account is over the budget: q then reads the word index and matches word prefixes. */
  let byWords = false;
  const large = async () => (byWords = (await counts()).total > budget);

  /** Combined indexes the filters name (status + urgency, destination team + status): candidates too. */
  function combinedIndexes(): Array<{ kind: IndexKind; values: string[] }> {
    const out: Array<{ kind: IndexKind; values: string[] }> = [];
    const equalsValues = (path: string) => {
      const filter = query.filters.find((f) => f.path === path);
      return filter && filter.op === 'equals' ? filter.values.map(String) : null;
    };
    const statuses = equalsValues('status');
    const urgencies = equalsValues('urgency');
    if (statuses && urgencies) out.push({ kind: 'su', values: statuses.flatMap((s) => urgencies.map((u) => `${s}#${u}`)) });
    const team = paths.destinationTeams ? query.filters.find((f) => f.path === paths.destinationTeams) : undefined;
    if (team && (team.op === 'contains' || team.op === 'equals') && team.values.length === 1) {
      out.push({ kind: 'dteam', values: (statuses ?? ALERT_STATUSES).map((s) => `${String(team.values[0])}#${s}`) });
    }
    return out;
  }

  /** The narrowest index to read candidates from: a view, else a third-party id, a tag, else the
   * indexed filter (or combination) with the smallest counter. */
  async function narrowest(): Promise<{ kind: IndexKind; values: string[] } | null> {
    if (options.view) return { kind: options.view.kind, values: [options.view.value] };
    const preferred = indexed.find((i) => i.kind === 'thirdparty') ?? indexed.find((i) => i.kind === 'tag');
    if (preferred) return preferred;
    const withCounter = [...indexed.filter((i) => counterOf(i.kind)), ...combinedIndexes()];
    if (withCounter.length === 0) return null;
    if (withCounter.length === 1) return withCounter[0];
    const all = await counts();
    let best = withCounter[0];
    let bestSize = Infinity;
    for (const candidate of withCounter) {
      const size = candidate.values.reduce((sum, v) => sum + (all[counterOf(candidate.kind)!(v)] ?? 0), 0);
      if (size < bestSize) [best, bestSize] = [candidate, size];
    }
    return best;
  }

  /** q's candidates when the word index answers it (a large account, a word of 3 characters or more). */
  async function searchCandidates(): Promise<string[] | null> {
    if (!query.q || options.view || !(await large())) return null;
    return wordCandidates(accountId, query.q, budget);
  }

  return {
    indexable: INDEXABLE,
    matchesSearch: (alert, q) =>
      byWords ? wordsMatch(alert, q) : [alert.title, alert.description].some((t) => (t ?? '').toLowerCase().includes(q.toLowerCase())),
    async size() {
      await large();
      if (query.q && byWords && !options.view) {
        const ids = await searchCandidates();
        if (ids) return ids.length;
      }
      const index = await narrowest();
      if (!index) return (await counts()).total ?? 0;
      const counter = counterOf(index.kind);
      if (!counter) return null;
      const all = await counts();
      return index.values.reduce((sum, value) => sum + (all[counter(value)] ?? 0), 0);
    },
    async all(limit) {
      const ids = await searchCandidates();
      if (ids) return getAlerts(accountId, ids.slice(0, limit));
      const index = await narrowest();
      if (!index) return listAlerts(accountId, { limit });
      const alerts = await readAnyOf(accountId, index, false, limit);
      return options.view ? alerts.filter((alert) => options.view!.includes(alert)) : alerts;
    },
    async fast(q) {
      if (options.view) return viewed(q, options.view);
      return combined(q);
    },
  };

  /** A view in creation order, unfiltered, or a team's alerts with `status=`. */
  async function viewed(q: ListQuery, view: AlertView): Promise<{ page: AlertRecord[]; total: number } | null> {
    const order = creationOrder(q);
    if (!order) return null;
    const want = q.offset + q.limit;
    if (q.filters.length === 0) {
      const index = { kind: view.kind, values: [view.value] };
      const [alerts, all] = await Promise.all([readAnyOf(accountId, index, order.forward, want), counts()]);
      return { page: alerts.slice(q.offset), total: await totalOf(accountId, index, all) };
    }
    // A team's alerts with a status: the team's links of each status wanted (and its assigned-team
    // links), each alert checked; the total from the team's counters of those statuses.
    const [status] = q.filters;
    if (view.kind !== 'team' || q.filters.length !== 1 || status.path !== 'status' || status.op !== 'equals') return null;
    const statuses = distinct(status.values);
    const index = { kind: 'tstatus' as const, values: statuses.map((s) => `${view.value}#${s}`) };
    const check = (alert: AlertRecord) => view.includes(alert) && statuses.includes(alert.status);
    // The team links of alerts stored before issue 21 (one for every team, any status) are what the
    // check leaves out here: past the list budget, the query goes the general way (reindex-alerts
    // rewrites them).
    const [read, all] = await Promise.all([readCheckedWithin(accountId, index, order.forward, want, check, budget), counts()]);
    if (!read) return null;
    return { page: read.page.slice(q.offset), total: countTeamAlertsWithStatus(all, view.value, statuses) };
  }

  /** The shapes the indexes answer in O(page): see lib/alerts/ACCESS-PATTERNS.md. */
  async function combined(q: ListQuery): Promise<{ page: AlertRecord[]; total: number } | null> {
    const want = q.offset + q.limit;
    const order = creationOrder(q);

    // q alone, newest first or in creation order: the word index and its candidates' count.
    if (q.q && q.filters.length === 0 && (!q.sort || inCreationOrder({ ...q, q: undefined }))) {
      const ids = await searchCandidates();
      if (!ids) return null;
      const forward = q.sort?.direction === 'asc';
      const ordered = forward ? [...ids].reverse() : ids;
      const page: AlertRecord[] = [];
      const stale: Array<{ id: string; alert: AlertRecord | null }> = [];
      let at = 0;
      let skipped = 0;
      while (page.length < q.limit && at < ordered.length) {
        const chunk = ordered.slice(at, at + Math.max(q.limit, want - at));
        at += chunk.length;
        const found = new Map((await getAlerts(accountId, chunk)).map((alert) => [alert.id, alert]));
        for (const id of chunk) {
          const alert = found.get(id) ?? null;
          if (!alert || !wordsMatch(alert, q.q)) stale.push({ id, alert });
          else if (skipped < q.offset) skipped++;
          else if (page.length < q.limit) page.push(alert);
        }
      }
      if (stale.length > 0) await repairWords(accountId, q.q, stale);
      return { page, total: ids.length - stale.length };
    }

    if (q.q) return null;

    // No filter, sorted by tiny id or updated_at (either direction): gsi5 / gsi6.
    if (q.filters.length === 0 && q.sort && (q.sort.path === paths.tiny || q.sort.path === paths.updated)) {
      const [page, all] = await Promise.all([
        listAlertsInOrder(accountId, q.sort.path === paths.tiny ? 'tiny_id' : 'updated_at', q.sort.direction === 'asc', want),
        counts(),
      ]);
      return { page: page.slice(q.offset), total: all.total ?? 0 };
    }
    if (!order) return null;

    if (q.filters.length === 0) {
      const [items, all] = await Promise.all([listAlerts(accountId, { forward: order.forward, limit: want }), counts()]);
      return { page: items.slice(q.offset), total: all.total ?? 0 };
    }

    const byPath = new Map(q.filters.map((filter) => [filter.path, filter]));
    if (byPath.size !== q.filters.length) return null;
    const status = byPath.get('status');
    const statuses = status && status.op === 'equals' ? status.values.map(String) : null;
    if (status && !statuses) return null;

    // One exactly indexed filter (status, urgency, tag, third-party id, incident, subtype).
    if (q.filters.length === 1 && indexed.length === 1 && indexed[0].exact) {
      const index = indexed[0];
      const check = heldValue(index);
      const [alerts, all] = await Promise.all([
        check
          ? readChecked(accountId, index, order.forward, want, check).then((read) => read.page)
          : readAnyOf(accountId, index, order.forward, want),
        counts(),
      ]);
      return { page: alerts.slice(q.offset), total: await totalOf(accountId, index, all) };
    }

    // status + urgency: gsi4.
    const urgency = byPath.get('urgency');
    if (statuses && urgency && urgency.op === 'equals' && q.filters.length === 2) {
      const urgencies = urgency.values.map(String);
      const index = { kind: 'su' as const, values: statuses.flatMap((s) => urgencies.map((u) => `${s}#${u}`)) };
      // A keys-only index read before the alerts: an alert that moved meanwhile is left out.
      const check = (alert: AlertRecord) => statuses.includes(alert.status) && urgencies.includes(alert.urgency);
      const [{ page }, all] = await Promise.all([readChecked(accountId, index, order.forward, want, check), counts()]);
      return { page: page.slice(q.offset), total: await totalOf(accountId, index, all) };
    }

    // A destination team, with or without status: the dteam links (checked against the alerts).
    const team = paths.destinationTeams ? byPath.get(paths.destinationTeams) : undefined;
    if (team && (team.op === 'contains' || team.op === 'equals') && team.values.length === 1 && q.filters.length === (statuses ? 2 : 1)) {
      const teamId = String(team.values[0]);
      const wanted = statuses ?? ALERT_STATUSES;
      const index = { kind: 'dteam' as const, values: wanted.map((s) => `${teamId}#${s}`) };
      const check = (alert: AlertRecord) => alert.destination_team_ids.includes(teamId) && wanted.includes(alert.status);
      const [{ page }, all] = await Promise.all([readChecked(accountId, index, order.forward, want, check), counts()]);
      return { page: page.slice(q.offset), total: await totalOf(accountId, index, all) };
    }

    // created_at in a range, with or without one status: an id range of the alert partition or of gsi4.
    const created = byPath.get(paths.created);
    if (created && created.type === 'datetime' && q.filters.length === (statuses ? 2 : 1) && (!statuses || statuses.length === 1)) {
      const range = createdRange(created);
      if (!range) return null;
      if (range === 'none') return { page: [], total: 0 };
      const full: CreatedRange = { ...range, status: statuses?.[0] };
      const [page, total] = await Promise.all([
        listAlertsCreatedIn(accountId, full, order.forward, want),
        countAlertsCreatedIn(accountId, full),
      ]);
      return { page: page.slice(q.offset), total };
    }
    return null;
  }
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
