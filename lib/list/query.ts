// Parses and validates list query parameters (docs/api.md#lists) against a resource's attribute
// schema. Bad values and unknown attributes are errors, so typos surface instead of matching nothing.
import { Invalid } from '../http/errors';
import type { ApiInterface } from '../http/request';

export type { ApiInterface };
export type AttributeType = 'string' | 'number' | 'boolean' | 'datetime' | 'array' | 'object' | 'any';
export type Op = 'equals' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'beginsWith' | 'contains' | 'between';

export const OPS: readonly Op[] = ['equals', 'ne', 'lt', 'lte', 'gt', 'gte', 'beginsWith', 'contains', 'between'];

export interface ListSpec {
  /** Attribute paths of the representation and their types; an `object` admits any sub-path. */
  attributes: Record<string, AttributeType>;
  /** Paths searched by `q`; default title, name and description. */
  search?: string[];
  /** Extra query parameters this list endpoint reads itself (not filters). */
  reserved?: string[];
}

export interface Filter {
  path: string;
  type: AttributeType;
  op: Op;
  /** Coerced comparison values: one per repeated parameter (any may match), two for between. */
  values: unknown[];
}

/** A parsed list query of one interface: only the earlier interface reads `select`. */
export interface ListQuery<Iface extends ApiInterface = ApiInterface> {
  limit: number;
  offset: number;
  filters: Filter[];
  q?: string;
  sort?: { path: string; type: AttributeType; direction: 'asc' | 'desc' };
  select?: Iface extends 'earlier' ? string[] : never;
}

const RESERVED = ['limit', 'offset', 'page', 'ops', 'sort', 'direction', 'q'];

export function attributeType(spec: ListSpec, path: string): AttributeType | null {
  // Own entries only: `constructor` or `toString` in a query names no attribute (422), not a function.
  const typeOf = (name: string) => (Object.hasOwn(spec.attributes, name) ? spec.attributes[name] : undefined);
  const direct = typeOf(path);
  if (direct) return direct;
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const parent = typeOf(parts.slice(0, i).join('.'));
    if (parent === 'object' || parent === 'any') return 'any';
    if (parent) return null;
  }
  return null;
}

function integer(name: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(raw.trim())) throw new Invalid(`${name} must be an integer between ${min} and ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw new Invalid(`${name} must be an integer between ${min} and ${max}`);
  return n;
}

/** Reads a query value as the attribute's type; throws naming the attribute when it cannot be read. */
export function coerce(path: string, type: AttributeType, raw: string): unknown {
  switch (type) {
    case 'boolean':
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw new Invalid(`${path} must be true or false`);
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new Invalid(`${path} must be a number`);
      return n;
    }
    case 'datetime': {
      const ms = parseDateTime(raw);
      if (ms === null) throw new Invalid(`${path} must be an ISO 8601 datetime`);
      return ms;
    }
    default:
      return raw;
  }
}

export function parseDateTime(raw: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw)) return null;
  // A space between date and time (`2026-01-01 10:00:00`) is accepted; no offset means UTC (docs/api.md#requests).
  let text = raw.trim().replace(' ', 'T');
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) text += 'Z';
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

export function parseListQuery<Iface extends ApiInterface>(params: URLSearchParams, spec: ListSpec, iface: Iface): ListQuery<Iface> {
  const reserved = new Set([...RESERVED, ...(iface === 'earlier' ? ['select'] : []), ...(spec.reserved ?? [])]);
  const single = (name: string) => {
    const all = params.getAll(name);
    return all.length > 0 ? all[all.length - 1] : undefined;
  };

  const limitRaw = single('limit');
  const limit = limitRaw === undefined ? 10 : integer('limit', limitRaw, 1, 100);
  const pageRaw = single('page');
  const offsetRaw = single('offset');
  let offset = 0;
  if (offsetRaw !== undefined) offset = integer('offset', offsetRaw, 0);
  if (pageRaw !== undefined) offset = (integer('page', pageRaw, 1) - 1) * limit;

  const opsByPath = new Map<string, Op>();
  const opsRaw = single('ops');
  if (opsRaw) {
    for (const token of opsRaw
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)) {
      const at = token.lastIndexOf(':');
      const path = at > 0 ? token.slice(0, at) : '';
      const op = token.slice(at + 1) as Op;
      if (!path || !attributeType(spec, path)) throw new Invalid(`ops names an unknown attribute: ${path || token}`);
      if (!OPS.includes(op)) throw new Invalid(`ops has an unknown operation ${op} for ${path}; use one of ${OPS.join(', ')}`);
      opsByPath.set(path, op);
    }
  }

  const filters: Filter[] = [];
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (reserved.has(name) || seen.has(name)) continue;
    seen.add(name);
    const type = attributeType(spec, name);
    if (!type) throw new Invalid(`${name} is not an attribute of this resource and cannot filter the list`);
    const defaultOp: Op = type === 'array' ? 'contains' : 'equals';
    const op = opsByPath.get(name) ?? defaultOp;
    const raws = params.getAll(name);
    let values: unknown[];
    if (op === 'between') {
      const [lo, hi, ...rest] = raws[raws.length - 1].split('..');
      if (lo === undefined || hi === undefined || rest.length > 0 || lo === '' || hi === '') {
        throw new Invalid(`${name} must be two bounds joined by two dots for between (a..b)`);
      }
      values = [coerce(name, type, lo), coerce(name, type, hi)];
    } else {
      const elementType = type === 'array' ? 'any' : type;
      values = raws.map((raw) => coerce(name, elementType, raw));
    }
    filters.push({ path: name, type, op, values });
  }

  const q = single('q');

  let sort: ListQuery['sort'];
  const sortRaw = single('sort');
  if (sortRaw) {
    const descending = sortRaw.startsWith('-');
    const path = descending ? sortRaw.slice(1) : sortRaw;
    const type = attributeType(spec, path);
    if (!type) throw new Invalid(`sort names an unknown attribute: ${path}`);
    const directionRaw = single('direction');
    if (directionRaw !== undefined && directionRaw !== 'asc' && directionRaw !== 'desc') {
      throw new Invalid('direction must be asc or desc');
    }
    sort = { path, type, direction: descending ? 'desc' : (directionRaw ?? 'asc') };
  } else {
    const directionRaw = single('direction');
    if (directionRaw !== undefined && directionRaw !== 'asc' && directionRaw !== 'desc') {
      throw new Invalid('direction must be asc or desc');
    }
  }

  let select: string[] | undefined;
  const selectRaw = iface === 'earlier' ? single('select') : undefined;
  if (selectRaw) {
    select = selectRaw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const path of select) {
      if (path !== 'id' && !attributeType(spec, path)) throw new Invalid(`select names an unknown attribute: ${path}`);
    }
  }

  // select is read on the earlier interface only (above), which is what ListQuery<Iface> says.
  return { limit, offset, filters, q: q && q.trim() ? q.trim() : undefined, sort, select } as ListQuery<Iface>;
}
