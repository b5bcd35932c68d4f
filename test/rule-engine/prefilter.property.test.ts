import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { EvaluationTime } from '../../lib/rule-engine';
import { compileMatch, compilePrefilter } from '../../lib/rule-engine/query';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const literal = fc.constantFrom<string | number | boolean>('a', 'b', 'high', '', 0, 1, 2, true, false);
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  literal,
  fc.array(literal, { maxLength: 3 }),
  literal.map((x) => ({ x })),
  fc.array(
    literal.map((x) => ({ x })),
    { maxLength: 3 },
  ),
  fc.array(fc.array(literal, { maxLength: 2 }), { maxLength: 2 }),
);
const PATHS = [
  'alert.urgency',
  'alert.tags',
  'log.data.service',
  'log.data.n',
  'log.data.nested.x',
  'log.data.list.x',
  'log.data.list.0.x',
  'alert.missing.deep',
];
const condition = fc.oneof(
  literal,
  literal.map(($eq) => ({ $eq })),
  fc.array(literal, { minLength: 1, maxLength: 3 }).map(($in) => ({ $in })),
  literal.map(($ne) => ({ $ne })),
  fc.constant({ $gt: 0 }),
  fc.constant({ $exists: false }),
);
const flat = fc.dictionary(fc.constantFrom(...PATHS), condition, { minKeys: 1, maxKeys: 3 }).map((d) => ({ ...d }));
const match = fc
  .tuple(flat, fc.option(fc.array(flat, { minLength: 1, maxLength: 2 })), fc.option(fc.array(flat, { minLength: 1, maxLength: 2 })))
  .map(([base, and, or]) => ({
    ...base,
    ...(and ? { $and: and } : {}),
    ...(or ? { $or: or } : {}),
  }));
const context = fc
  .record({ urgency: value, tags: value, service: value, n: value, nested: value, list: value, missing: value })
  .map((v) => ({
    always: true,
    alert: { urgency: v.urgency, tags: v.tags, missing: v.missing },
    log: { data: { service: v.service, n: v.n, nested: v.nested, list: v.list }, headers: {} },
    log_parsed: true,
  }));

describe('the literal prefilter never changes a decision', () => {
  it('gives the same answer as sift alone, lists and missing values included', () => {
    const time = new EvaluationTime().at(0);
    fc.assert(
      fc.property(match, fc.array(context, { minLength: 1, maxLength: 5 }), (query, contexts) => {
        const withPrefilter = compileMatch(query, time);
        const siftOnly = compileMatch(query, time, { prefilter: false });
        for (const ctx of contexts) expect(withPrefilter(ctx)).toBe(siftOnly(ctx));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same answer for single conditions, where a wrong "no" cannot hide behind another condition', () => {
    const time = new EvaluationTime().at(0);
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), condition, fc.array(context, { minLength: 3, maxLength: 8 }), (path, cond, contexts) => {
        const query = { [path]: cond };
        const withPrefilter = compileMatch(query, time);
        const siftOnly = compileMatch(query, time, { prefilter: false });
        for (const ctx of contexts) expect(withPrefilter(ctx)).toBe(siftOnly(ctx));
      }),
      { numRuns: 3000 },
    );
  });

  it('prefilters conditions on literals, and $and/$or built of them', () => {
    expect(compilePrefilter({ 'alert.urgency': 'high' })).not.toBeNull();
    expect(compilePrefilter({ $or: [{ a: 1 }, { b: { $in: [1, 2] } }] })).not.toBeNull();
    expect(compilePrefilter({ $or: [{ a: 1 }, { b: { $gt: 1 } }] })).toBeNull();
    expect(compilePrefilter({ 'alert.title': { $regex: 'x' } })).toBeNull();
    expect(compilePrefilter({ always: true })!({ always: false })).toBe(false);
  });
});
