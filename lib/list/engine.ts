// Runs a parsed list query over a resource (docs/api.md#lists). A source may answer a query through an
// index and an exact counter (the fast path: unfiltered or key-filtered pages); everything else is
// read from the account's partition for that type (or the narrowest index the filters name) and
// filtered, sorted and counted here, within a read budget: a query whose candidates exceed it is a
// validation error naming what would make it indexable, never an unbounded read.
import { config, DEFAULT_LIST_READ_BUDGET } from '../config';
import { Invalid } from '../http/errors';
import type { ApiInterface } from '../http/request';
import type { ListPage, Listed, Selection } from '../http/route-contract';
import type { Filter, ListQuery } from './query';
import { parseDateTime } from './query';

export type { ListPage };

export interface ListSource<D extends { id: string }> {
  /** Every object of the resource in the account (the candidates of the query); a source that can
   * bounds its read to `limit` objects (more means the query is over the budget). */
  all(limit?: number): Promise<D[]>;
  /** Answers the query from an index and counter when it can; null when it cannot. */
  fast?(query: ListQuery): Promise<{ page: D[]; total: number } | null>;
  /** How many objects all() would read, when a counter tells it cheaply (checked before reading). */
  size?(): Promise<number | null>;
  /** `q` as this source matches it (default: a case-insensitive substring of the search paths). */
  matchesSearch?(object: D, q: string): boolean;
  /** What makes a query of this resource indexable: the end of the over-budget message. */
  indexable?: string;
}

/** Objects a list may read to answer a query outside its indexes (LIST_READ_BUDGET). */
export function listReadBudget(): number {
  // Read where the table is configured (the service validates it at start, lib/config.ts); pure
  // uses of the engine without a table fall back to the default.
  return process.env.TABLE_NAME ? config().LIST_READ_BUDGET : DEFAULT_LIST_READ_BUDGET;
}

/** The answer to a query whose candidates exceed the read budget (422 on v4, 400 on the earlier interface). */
export class OverBudget extends Invalid {
  constructor(budget: number, indexable?: string) {
    super(
      `This query would read more than ${budget} objects: narrow it with an indexed filter or sort` +
        (indexable ? ` (${indexable})` : ' (sort by created_at, or no filter)'),
    );
  }
}

/** Reads a dotted path; through an array of objects it collects the path from every element
 * (`user.emails.email` gives every address), so filters and `q` reach nested lists too. */
export function getPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    if (Array.isArray(current) && !/^\d+$/.test(part)) {
      current = current.flatMap((element: unknown) => {
        const next =
          element && typeof element === 'object' && Object.hasOwn(element, part) ? (element as Record<string, unknown>)[part] : undefined;
        return next === undefined ? [] : [next];
      });
      continue;
    }
    // Own properties only: `meta.constructor` is whatever meta holds under that key, never a function.
    current = Object.hasOwn(current, part) ? (current as Record<string, unknown>)[part] : undefined;
  }
  return current;
}

/**
 * Puts an actual value and a filter value into one comparable type. Filter values arrive already
 * coerced to the attribute's type; for schema-less paths (`any`) the raw string is read in the
 * type of the value it is compared with.
 */
function normalize(actual: unknown, wanted: unknown): [unknown, unknown] {
  if (typeof wanted === 'string' && typeof actual !== 'string') {
    if (typeof actual === 'number' && wanted.trim() !== '' && Number.isFinite(Number(wanted))) return [actual, Number(wanted)];
    if (typeof actual === 'boolean') {
      if (wanted === 'true' || wanted === '1') return [actual, true];
      if (wanted === 'false' || wanted === '0') return [actual, false];
    }
  }
  if (typeof wanted === 'number') {
    if (typeof actual === 'number') return [actual, wanted];
    if (typeof actual === 'string') {
      const asDate = parseDateTime(actual);
      if (asDate !== null) return [asDate, wanted];
      const n = Number(actual);
      return [actual.trim() !== '' && Number.isFinite(n) ? n : undefined, wanted];
    }
    return [undefined, wanted];
  }
  if (typeof wanted === 'boolean') return [typeof actual === 'boolean' ? actual : undefined, wanted];
  if (actual === null || actual === undefined) return [actual, wanted];
  const scalar = typeof actual === 'string' || typeof actual === 'number' || typeof actual === 'boolean';
  return [scalar ? String(actual) : JSON.stringify(actual), wanted];
}

/** The text a value compares by when it is not compared as a number or a boolean: a list as its items
 * joined by commas, an object (free-form meta, options) as its JSON, like a filter reads it (normalize).
 * String() would see every object as '[object Object]' and throws on one with an own `toString` key. */
function comparableText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((item) => (item === null || item === undefined ? '' : comparableText(item))).join(',');
  return JSON.stringify(value) ?? '';
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  const left = comparableText(a);
  const right = comparableText(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function matchesOne(actual: unknown, op: Filter['op'], wanted: unknown): boolean {
  if (Array.isArray(actual)) {
    if (op === 'equals' || op === 'contains' || op === 'ne') {
      const has = actual.some((element) => {
        const [left, right] = normalize(element, wanted);
        return left === right;
      });
      return op === 'ne' ? !has : has;
    }
    return actual.some((element) => matchesOne(element, op, wanted));
  }
  if ((actual === undefined || actual === null) && wanted === 'null') return op !== 'ne';
  const [left, right] = normalize(actual, wanted);
  const present = left !== undefined && left !== null;
  switch (op) {
    case 'equals':
      return left === right;
    case 'ne':
      return left !== right;
    case 'lt':
      return present && compare(left, right) < 0;
    case 'lte':
      return present && compare(left, right) <= 0;
    case 'gt':
      return present && compare(left, right) > 0;
    case 'gte':
      return present && compare(left, right) >= 0;
    case 'beginsWith':
      return typeof left === 'string' && left.startsWith(String(right));
    case 'contains':
      return typeof left === 'string' && left.includes(String(right));
    case 'between':
      return false;
  }
}

export function matches(rep: unknown, filter: Filter): boolean {
  const actual = getPath(rep, filter.path);
  if (filter.op === 'between') {
    const [lo, hi] = filter.values;
    const inRange = (value: unknown) => {
      const [left, low] = normalize(value, lo);
      const [, high] = normalize(value, hi);
      return left !== undefined && left !== null && compare(left, low) >= 0 && compare(left, high) <= 0;
    };
    return Array.isArray(actual) ? actual.some(inRange) : inRange(actual);
  }
  // Repeated parameters (status=open&status=acknowledged) match any of their values,
  // except `ne`, which must differ from all of them.
  return filter.op === 'ne'
    ? filter.values.every((value) => matchesOne(actual, filter.op, value))
    : filter.values.some((value) => matchesOne(actual, filter.op, value));
}

function searchMatches(rep: unknown, q: string, paths: string[]): boolean {
  const needle = q.toLowerCase();
  return paths.some((path) => {
    const value = getPath(rep, path);
    if (Array.isArray(value)) return value.some((v) => String(v).toLowerCase().includes(needle));
    return typeof value === 'string' && value.toLowerCase().includes(needle);
  });
}

function pick<R>(rep: R, paths: string[]): Selection<R> {
  const out: Record<string, unknown> = { id: getPath(rep, 'id') };
  for (const path of paths) {
    const parts = path.split('.');
    let target = out;
    for (const part of parts.slice(0, -1)) {
      if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts[parts.length - 1]] = getPath(rep, path) ?? null;
  }
  return out as Selection<R>;
}

export interface RunListOptions {
  search?: string[];
}

export async function runList<D extends { id: string }, R, Iface extends ApiInterface>(
  query: ListQuery<Iface>,
  source: ListSource<D>,
  serialize: (object: D) => R,
  options: RunListOptions = {},
): Promise<ListPage<Listed<R, Iface>>> {
  // Only an earlier-interface query carries a select (ListQuery<Iface>), so a cut item is what Listed allows.
  const shape = (reps: R[]) => (query.select ? reps.map((rep) => pick(rep, query.select!)) : reps) as Listed<R, Iface>[];

  const fast = source.fast ? await source.fast(query) : null;
  if (fast) {
    return {
      data: shape(fast.page.map(serialize)),
      has_more: query.offset + fast.page.length < fast.total,
      total_count: fast.total,
    };
  }

  const budget = listReadBudget();
  const size = source.size ? await source.size() : null;
  if (size !== null && size > budget) throw new OverBudget(budget, source.indexable);
  const objects = await source.all(budget + 1);
  if (objects.length > budget) throw new OverBudget(budget, source.indexable);
  let rows = objects.map((object) => ({ object, rep: serialize(object) }));
  for (const filter of query.filters) rows = rows.filter((row) => matches(row.rep, filter));
  if (query.q) {
    const paths = options.search ?? ['title', 'name', 'description'];
    const q = query.q;
    rows = rows.filter((row) => (source.matchesSearch ? source.matchesSearch(row.object, q) : searchMatches(row.rep, q, paths)));
  }
  if (query.sort) {
    const { path, direction } = query.sort;
    const sign = direction === 'desc' ? -1 : 1;
    const keyed = rows.map((row) => {
      const raw = getPath(row.rep, path);
      const key = query.sort!.type === 'datetime' && typeof raw === 'string' ? parseDateTime(raw) : raw;
      return { row, key };
    });
    keyed.sort((a, b) => {
      const byKey = compare(a.key, b.key);
      if (byKey !== 0) {
        // Absent values go last whatever the direction.
        if (a.key === undefined || a.key === null) return 1;
        if (b.key === undefined || b.key === null) return -1;
        return sign * byKey;
      }
      return sign * (a.row.object.id < b.row.object.id ? -1 : a.row.object.id > b.row.object.id ? 1 : 0);
    });
    rows = keyed.map((k) => k.row);
  } else {
    rows.sort((a, b) => (a.object.id < b.object.id ? 1 : a.object.id > b.object.id ? -1 : 0));
  }
  const total = rows.length;
  const page = rows.slice(query.offset, query.offset + query.limit);
  return {
    data: shape(page.map((row) => row.rep)),
    has_more: query.offset + page.length < total,
    total_count: total,
  };
}
