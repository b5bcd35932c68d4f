import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lib/lazy-schema';

/** Counts the schemas zod builds, through its global post-processor hook (as test/infra/bundles.test.ts does). */
const config = (globalThis as unknown as { __zod_globalConfig: { postProcessor?: () => void } }).__zod_globalConfig;
let built = 0;
beforeEach(() => {
  built = 0;
  config.postProcessor = () => {
    built++;
  };
});
afterEach(() => {
  delete config.postProcessor;
});

describe('a schema built on first use', () => {
  it('builds nothing until something reads it, then builds once', () => {
    let builds = 0;
    const title = lazySchema(() => {
      builds++;
      return z.string().trim().min(1);
    });
    const input = lazyObject(() => ({ title, urgency: z.enum(['high', 'low']).optional() }));
    expect([builds, built]).toEqual([0, 0]);

    expect(input.parse({ title: '  Disk full ', urgency: 'high' })).toEqual({ title: 'Disk full', urgency: 'high' });
    expect(builds).toBe(1);
    const afterFirstUse = built;
    expect(afterFirstUse).toBeGreaterThan(0);

    expect(input.safeParse({ title: ' ' }).success).toBe(false);
    expect(title.parse('x')).toBe('x');
    expect([builds, built]).toEqual([1, afterFirstUse]);
  });

  it('is built again on its next use when its builder failed (zod not loaded yet)', () => {
    let loaded = false;
    const title = lazySchema(() => {
      if (!loaded) throw new TypeError('object is not a function');
      return z.string().min(2);
    });
    expect(() => title.parse('ok')).toThrow(TypeError);
    loaded = true;
    expect(title.parse('ok')).toBe('ok');
    expect(title.safeParse('x').success).toBe(false);
  });

  it('is the schema for zod: its class, its methods, composition and the issues it reports', () => {
    const person = lazyStrictObject(() => ({ name: z.string(), age: z.number().int().min(0) }));
    expect(person).toBeInstanceOf(z.ZodObject);
    expect(person).toBeInstanceOf(z.ZodType);
    expect(Object.keys(person.shape)).toEqual(['name', 'age']);
    expect(person.extend({ email: z.email() }).safeParse({ name: 'Ada', age: 36, email: 'ada@example.com' }).success).toBe(true);
    expect(person.partial().parse({})).toEqual({});
    const result = person.safeParse({ name: 'Ada', age: -1, extra: true });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.code, issue.path.join('.')])).toEqual([
      ['too_small', 'age'],
      ['unrecognized_keys', ''],
    ]);
    expect(z.array(person.optional()).parse([undefined, { name: 'Bo', age: 1 }])).toEqual([undefined, { name: 'Bo', age: 1 }]);
  });

  it('keeps one identity: a registry entry made before it was built names it in JSON Schema, where it is used too', () => {
    const names = z.registry<{ id: string }>();
    const address = lazyStrictObject(() => ({ street: z.string() }));
    const person = lazyStrictObject(() => ({ home: address, work: address.optional() }));
    names.add(address, { id: 'Address' });
    names.add(person, { id: 'Person' });

    const converted = z.toJSONSchema(names, { uri: (id) => `#/components/schemas/${id}` });
    expect(Object.keys(converted.schemas).sort()).toEqual(['Address', 'Person']);
    expect(converted.schemas.Person.properties).toEqual({
      home: { $ref: '#/components/schemas/Address' },
      work: { $ref: '#/components/schemas/Address' },
    });
    expect(names.get(address)).toEqual({ id: 'Address' });
  });

  it('keeps the description its builder gave it', () => {
    const token = lazySchema(() => z.string().describe('The token, as issued'));
    expect(token.description).toBe('The token, as issued');
    expect(z.toJSONSchema(token)).toMatchObject({ type: 'string', description: 'The token, as issued' });
  });
});
