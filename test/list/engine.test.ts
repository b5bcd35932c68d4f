import { describe, expect, it } from 'vitest';
import { runList, type ListSource } from '../../lib/list/engine';
import { parseListQuery, type ListSpec } from '../../lib/list/query';

interface Row {
  id: string;
  title: string;
  status: string;
  tiny_id: number;
  created_at: string;
  tag_list: string[];
  meta: { incident?: boolean; severity?: string };
  description?: string | null;
}

const spec: ListSpec = {
  attributes: {
    id: 'string',
    title: 'string',
    status: 'string',
    tiny_id: 'number',
    created_at: 'datetime',
    tag_list: 'array',
    meta: 'object',
    description: 'string',
  },
};

// ids increase with creation, as ULIDs do
const rows: Row[] = Array.from({ length: 12 }, (_, i) => ({
  id: `ID${String(i).padStart(3, '0')}`,
  title: i % 2 ? `Disk full on db-${i}` : `CPU high on web-${i}`,
  status: ['open', 'acknowledged', 'resolved'][i % 3],
  tiny_id: i + 1,
  created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
  tag_list: i % 4 === 0 ? ['db', 'prod'] : ['web'],
  meta: { incident: i % 5 === 0, severity: i % 5 === 0 ? 'SEV-1' : undefined },
  description: i === 3 ? null : `row ${i}`,
}));

const source: ListSource<Row> = { all: async () => [...rows] };

async function list(query: string, iface: 'v4' | 'earlier' = 'v4') {
  return runList(parseListQuery(new URLSearchParams(query), spec, iface), source, (r) => r);
}
const ids = (page: { data: unknown[] }) => page.data.map((r) => (r as Row).tiny_id);

describe('the list engine', () => {
  it('pages newest first with exact totals', async () => {
    const first = await list('limit=5');
    expect(ids(first)).toEqual([12, 11, 10, 9, 8]);
    expect(first).toMatchObject({ has_more: true, total_count: 12 });
    const last = await list('limit=5&page=3');
    expect(ids(last)).toEqual([2, 1]);
    expect(last).toMatchObject({ has_more: false, total_count: 12 });
  });

  it('returns an empty page past the end', async () => {
    expect(await list('offset=50')).toEqual({ data: [], has_more: false, total_count: 12 });
  });

  it('has_more is false when the page ends exactly at the last object', async () => {
    expect((await list('limit=6&offset=6')).has_more).toBe(false);
  });

  it('applies equals by default, and repeated values as any-of', async () => {
    expect((await list('status=open')).total_count).toBe(4);
    expect((await list('status=open&status=resolved')).total_count).toBe(8);
  });

  it.each([
    ['tiny_id=3&ops=tiny_id:ne', 11],
    ['tiny_id=3&ops=tiny_id:lt', 2],
    ['tiny_id=3&ops=tiny_id:lte', 3],
    ['tiny_id=10&ops=tiny_id:gt', 2],
    ['tiny_id=10&ops=tiny_id:gte', 3],
    ['title=Disk&ops=title:beginsWith', 6],
    ['title=db-&ops=title:contains', 6],
    ['tiny_id=4..6&ops=tiny_id:between', 3],
    ['created_at=2026-01-03T00:00:00Z..2026-01-05T00:00:00Z&ops=created_at:between', 3],
    ['created_at=2026-01-11T00:00:00.000Z&ops=created_at:gte', 2],
    ['tag_list=db', 3],
    ['tag_list=db&ops=tag_list:ne', 9],
    ['meta.incident=true', 3],
    ['meta.incident=1', 3],
    ['meta.severity=SEV-1', 3],
    ['status=open&ops=status:ne', 8],
  ])('%s matches %i', async (query, count) => {
    expect((await list(query)).total_count).toBe(count);
  });

  it('searches title and description case-insensitively with q', async () => {
    expect((await list('q=DISK')).total_count).toBe(6);
    expect((await list('q=row%201')).total_count).toBe(3); // row 1, row 10, row 11
  });

  it('sorts ascending by default when sort is given, and descending on request', async () => {
    expect(ids(await list('sort=tiny_id&limit=3'))).toEqual([1, 2, 3]);
    expect(ids(await list('sort=tiny_id&direction=desc&limit=3'))).toEqual([12, 11, 10]);
    expect(ids(await list('sort=-tiny_id&limit=3', 'earlier'))).toEqual([12, 11, 10]);
  });

  it('puts absent values last whichever the direction', async () => {
    const asc = await list('sort=description&limit=12');
    const desc = await list('sort=description&direction=desc&limit=12');
    expect(ids(asc).at(-1)).toBe(4);
    expect(ids(desc).at(-1)).toBe(4);
  });

  it('returns only the selected attributes and the id', async () => {
    const page = await list('select=title,meta.incident&limit=1', 'earlier');
    expect(page.data).toEqual([{ id: 'ID011', title: 'Disk full on db-11', meta: { incident: false } }]);
  });

  it('uses a source’s fast path when it answers', async () => {
    const fast: ListSource<Row> = {
      all: async () => {
        throw new Error('must not read everything');
      },
      fast: async (query) => ({ page: rows.slice(0, query.limit), total: 12 }),
    };
    const page = await runList(parseListQuery(new URLSearchParams('limit=2&offset=10'), spec, 'v4'), fast, (r) => r);
    expect(page).toMatchObject({ total_count: 12, has_more: false });
  });
});
