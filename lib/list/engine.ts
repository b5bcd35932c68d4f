// Runs a parsed list query over a resource (docs/api.md#lists). A source may answer a query through an
// index and an exact counter (the fast path: unfiltered or key-filtered pages); everything else is
// read from the account's partition for that type and filtered, sorted and counted here.
import type { Filter, ListQuery } from './query';
import { parseDateTime } from './query';

export interface ListPage<R> {
  data: R[];
  has_more: boolean;
  total_count: number;
}

export interface ListSource<D extends { id: string }> {
  /** Every object of the resource in the account. */
  all(): Promise<D[]>;
  /** Answers the query from an index and counter when it can; null when it cannot. */
  fast?(query: ListQuery): Promise<{ page: D[]; total: number } | null>;
}

/** Reads a dotted path; through an array of objects it collects the path from every element
 * (`user.emails.email` gives every address), so filters and `q` reach nested lists too. */
export function getPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    if (Array.isArray(current) && !/^\d+$/.test(part)) {
      current = current.flatMap((element) => {
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
  return [typeof actual === 'object' ? JSON.stringify(actual) : String(actual), wanted];
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
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

function pick(rep: unknown, paths: string[]): Record<string, unknown> {
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
  return out;
}

export interface RunListOptions {
  search?: string[];
}

export async function runList<D extends { id: string }, R>(
  query: ListQuery,
  source: ListSource<D>,
  serialize: (object: D) => R,
  options: RunListOptions = {},
): Promise<ListPage<R | Record<string, unknown>>> {
  const shape = (reps: R[]) => (query.select ? reps.map((rep) => pick(rep, query.select!)) : reps);

  const fast = source.fast ? await source.fast(query) : null;
  if (fast) {
    return {
      data: shape(fast.page.map(serialize)),
      has_more: query.offset + fast.page.length < fast.total,
      total_count: fast.total,
    };
  }

  const objects = await source.all();
  let rows = objects.map((object) => ({ object, rep: serialize(object) }));
  for (const filter of query.filters) rows = rows.filter((row) => matches(row.rep, filter));
  if (query.q) {
    const paths = options.search ?? ['title', 'name', 'description'];
    rows = rows.filter((row) => searchMatches(row.rep, query.q!, paths));
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
