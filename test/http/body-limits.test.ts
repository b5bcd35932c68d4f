import { describe, expect, it } from 'vitest';
import { checkBody } from '../../lib/http/body-limits';
import { HttpError } from '../../lib/http/errors';

function failure(body: unknown): HttpError {
  try {
    checkBody(body);
  } catch (error) {
    return error as HttpError;
  }
  throw new Error('expected checkBody to refuse the body');
}

describe('limits of a parsed JSON body', () => {
  it('drops __proto__, constructor and prototype own keys at every depth', () => {
    const body = JSON.parse(
      '{"__proto__":{"polluted":1},"meta":{"constructor":{"prototype":{"polluted":1}},"ok":1},"list":[{"__proto__":{"x":1}}]}',
    );
    checkBody(body);
    expect(Object.keys(body)).toEqual(['meta', 'list']);
    expect(body.meta).toEqual({ ok: 1 });
    expect(Object.keys(body.list[0])).toEqual([]);
    const merged = { ...body.meta, ...body.list[0] };
    expect((merged as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses numbers JSON cannot carry, naming the field', () => {
    const error = failure(JSON.parse('{"meta":{"n":[1,-1e400]}}'));
    expect(error.status).toBe(422);
    expect(error.messages[0]).toBe('meta.n[1] must be a finite number');
  });

  it('refuses deep nesting, long arrays and huge bodies', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = { a: deep };
    expect(failure(deep).messages[0]).toMatch(/nested more than 32 levels/);
    expect(failure({ ids: new Array(1_001).fill('x') }).messages[0]).toBe('ids must have at most 1000 entries');
    const wide = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`k${i}`, new Array(30).fill(0)]));
    expect(failure(wide).messages[0]).toMatch(/more than 20000 values/);
  });

  it('leaves an ordinary body untouched', () => {
    const body = { title: 'Disk full', meta: { incident: true, n: 3 }, tags: ['a', 'b'] };
    expect(checkBody(structuredClone(body))).toEqual(body);
  });
});
