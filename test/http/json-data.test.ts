import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { cleanJsonData, jsonDataProblem, storableJson } from '../../lib/encoding/json-data';
import { jsonData } from '../../lib/http/fields';
import { mergeKeys } from '../../lib/http/changes';
import { HttpError } from '../../lib/http/errors';
import { parseInput } from '../../lib/http/validate';

const limits = { maxDepth: 3, maxKeys: 2, maxItems: 2, maxBytes: 64 };

describe('plain JSON data within limits', () => {
  it('accepts text, finite numbers, booleans, null, lists and objects', () => {
    expect(jsonDataProblem({ a: 'x', b: [1, true] }, limits)).toBeNull();
    expect(jsonDataProblem({ a: null }, limits)).toBeNull();
  });

  it('names where a value breaks a limit', () => {
    expect(jsonDataProblem({ a: [1, Infinity] }, limits)).toEqual({ path: ['a', 1], message: 'must be a finite number' });
    expect(jsonDataProblem({ a: { b: { c: {} } } }, limits)).toEqual({
      path: ['a', 'b', 'c'],
      message: 'is nested more than 3 levels deep',
    });
    expect(jsonDataProblem({ a: 1, b: 2, c: 3 }, limits)?.message).toBe('must have at most 2 keys');
    expect(jsonDataProblem({ a: [1, 2, 3] }, limits)).toEqual({ path: ['a'], message: 'must have at most 2 entries' });
    expect(jsonDataProblem({ a: 'x'.repeat(80) }, limits)).toEqual({ path: [], message: 'must be at most 0 KB as JSON' });
    expect(jsonDataProblem({ a: () => 1 }, limits)?.path).toEqual(['a']);
    expect(jsonDataProblem({ a: new Date() }, limits)?.path).toEqual(['a']);
    expect(jsonDataProblem({ a: 2 ** 60 }, limits)?.message).toMatch(/^must be between/);
    expect(jsonDataProblem({ a: { '': 1 } }, limits)).toEqual({ path: ['a'], message: 'must not have an empty key' });
  });

  it('drops keys that could reach a prototype, at every depth, without counting them', () => {
    const value = JSON.parse('{"a":{"__proto__":{"polluted":1},"constructor":{"prototype":{}},"ok":1},"prototype":2}');
    expect(jsonDataProblem(value, limits)).toBeNull();
    const clean = cleanJsonData(value);
    expect(clean).toEqual({ a: { ok: 1 } });
    expect(Object.getPrototypeOf(clean.a)).toBe(Object.prototype);
  });

  it('the zod field refuses with the field named, and hands over a clean copy', () => {
    const schema = z.object({ meta: jsonData({ maxDepth: 2 }) });
    expect(() => parseInput(schema, { meta: { a: { b: { c: 1 } } } })).toThrow('meta.a.b is nested more than 2 levels deep');
    const parsed = parseInput(schema, JSON.parse('{"meta":{"constructor":{"prototype":{"x":1}},"k":1}}'));
    expect(parsed.meta).toEqual({ k: 1 });
  });
});

describe('merging free-form objects', () => {
  it('never writes through a prototype key, and unsets keys sent as null', () => {
    const changes = JSON.parse('{"__proto__":{"polluted":1},"a":null,"b":2}');
    const merged = mergeKeys({ a: 1, keep: true }, changes, 'meta');
    expect(merged).toEqual({ keep: true, b: 2 });
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a merge whose result passes the limits, naming the field', () => {
    const current = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    let error: unknown;
    try {
      mergeKeys(current, { extra: 1 }, 'options');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).messages).toEqual(['options must have at most 100 keys']);
    expect(mergeKeys(current, { k0: null, extra: 1 }, 'options')).toHaveProperty('extra', 1);
  });
});

describe('what senders send, made storable', () => {
  it('keeps numbers the store cannot hold as text, drops prototype keys, keeps deep values as JSON text', () => {
    const parsed = JSON.parse('{"a":1e400,"b":[1,-1e400,1e-200,2e20],"__proto__":{"x":1},"c":{"constructor":{"y":1},"":2,"ok":true}}');
    expect(storableJson(parsed)).toEqual({ a: 'Infinity', b: [1, '-Infinity', '1e-200', '200000000000000000000'], c: { ok: true } });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 12; i++) deep = { d: deep };
    const kept = storableJson(deep, 3) as any;
    expect(typeof kept.d.d.d).toBe('string');
    expect(JSON.parse(kept.d.d.d)).toHaveProperty('d');
    expect(storableJson([undefined, () => 1])).toEqual([null, null]);
  });
});
