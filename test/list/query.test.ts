import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http/errors';
import { parseListQuery, type ListSpec } from '../../lib/list/query';

const spec: ListSpec = {
  attributes: {
    id: 'string',
    title: 'string',
    status: 'string',
    tiny_id: 'number',
    created_at: 'datetime',
    acknowledged: 'boolean',
    tag_list: 'array',
    meta: 'object',
  },
};

const parse = (query: string, iface: 'v4' | 'earlier' = 'v4') => parseListQuery(new URLSearchParams(query), spec, iface);

function failure(query: string, iface: 'v4' | 'earlier' = 'v4'): HttpError {
  try {
    parse(query, iface);
  } catch (error) {
    return error as HttpError;
  }
  throw new Error(`expected ${query} to be refused`);
}

describe('list query parsing', () => {
  it('defaults to the first ten, newest first', () => {
    expect(parse('')).toEqual({ limit: 10, offset: 0, filters: [], q: undefined, sort: undefined, select: undefined });
  });

  it('computes the offset from page and limit', () => {
    expect(parse('limit=25&page=3')).toMatchObject({ limit: 25, offset: 50 });
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'page=0', 'limit=1.5'])(
    'refuses %s with 422 naming the parameter',
    (query) => {
      const error = failure(query);
      expect(error.status).toBe(422);
      expect(error.messages[0]).toMatch(new RegExp(`^${query.split('=')[0]} `));
    },
  );

  it('accepts limit 1 and limit 100', () => {
    expect(parse('limit=1').limit).toBe(1);
    expect(parse('limit=100').limit).toBe(100);
  });

  it('reads filter values as the attribute type', () => {
    const { filters } = parse('tiny_id=3&acknowledged=1&created_at=2026-01-02T03:04:05Z&meta.incident=true');
    expect(filters).toEqual([
      { path: 'tiny_id', type: 'number', op: 'equals', values: [3] },
      { path: 'acknowledged', type: 'boolean', op: 'equals', values: [true] },
      { path: 'created_at', type: 'datetime', op: 'equals', values: [Date.UTC(2026, 0, 2, 3, 4, 5)] },
      { path: 'meta.incident', type: 'any', op: 'equals', values: ['true'] },
    ]);
  });

  it.each([
    ['tiny_id=abc', 'tiny_id must be a number'],
    ['acknowledged=yes', 'acknowledged must be true or false'],
    ['created_at=yesterday', 'created_at must be an ISO 8601 datetime'],
  ])('refuses %s', (query, message) => {
    expect(failure(query).messages).toEqual([message]);
  });

  it('refuses an unknown attribute so typos surface', () => {
    const error = failure('stauts=open');
    expect(error.status).toBe(422);
    expect(error.messages[0]).toContain('stauts');
  });

  it('defaults to contains for arrays and takes ops per attribute', () => {
    const { filters } = parse('tag_list=db&title=Disk&tiny_id=2..9&ops=title:beginsWith,tiny_id:between');
    expect(filters.map((f) => [f.path, f.op, f.values])).toEqual([
      ['tag_list', 'contains', ['db']],
      ['title', 'beginsWith', ['Disk']],
      ['tiny_id', 'between', [2, 9]],
    ]);
  });

  it('refuses an unknown operation, an unknown ops attribute and a malformed between', () => {
    expect(failure('title=a&ops=title:like').messages[0]).toContain('like');
    expect(failure('ops=nope:equals').messages[0]).toContain('nope');
    expect(failure('tiny_id=3&ops=tiny_id:between').messages[0]).toContain('between');
  });

  it('sorts by sort and direction, or by -attr', () => {
    expect(parse('sort=title').sort).toEqual({ path: 'title', type: 'string', direction: 'asc' });
    expect(parse('sort=title&direction=desc').sort?.direction).toBe('desc');
    expect(parse('sort=-title', 'earlier').sort).toEqual({ path: 'title', type: 'string', direction: 'desc' });
    expect(failure('sort=nope').status).toBe(422);
    expect(failure('sort=title&direction=up').messages[0]).toBe('direction must be asc or desc');
  });

  it('reads select on the earlier interface only', () => {
    expect(parse('select=title,status', 'earlier').select).toEqual(['title', 'status']);
    expect(failure('select=title').status).toBe(422);
    expect(failure('select=nope', 'earlier').messages[0]).toContain('nope');
  });

  it('keeps q as free text', () => {
    expect(parse('q=%20disk%20full%20').q).toBe('disk full');
  });
});
