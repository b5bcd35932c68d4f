import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../lib/integrations/ingest/group-commit';
import { leaseSize } from '../../lib/integrations/ingest/rate-limit';
import { mergeOptions, optionChanges } from '../../lib/integrations/schemas';

describe('group commit', () => {
  it('writes callers of one turn together, and those arriving meanwhile in the next group', async () => {
    const groups: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const commit = new GroupCommit<number>(async (items) => {
      groups.push(items);
      if (groups.length === 1) await gate;
    }, 25, 1);
    const first = [1, 2, 3].map((n) => commit.add(n));
    await new Promise((r) => setImmediate(r));
    const later = [4, 5, 6, 7].map((n) => commit.add(n));
    await new Promise((r) => setTimeout(r, 10));
    expect(groups).toEqual([[1, 2, 3]]);
    release();
    await Promise.all([...first, ...later]);
    expect(groups).toEqual([[1, 2, 3], [4, 5, 6, 7]]);
  });

  it('splits groups at the maximum size and reports failures to their own callers only', async () => {
    const commit = new GroupCommit<number>(async (items) => items.map((n) => (n % 2 === 0 ? new Error(`even ${n}`) : undefined)), 2, 4);
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => commit.add(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
  });

  it('rejects every caller of a group whose write throws', async () => {
    const commit = new GroupCommit<number>(async () => {
      throw new Error('store down');
    }, 10, 1);
    const results = await Promise.allSettled([1, 2].map((n) => commit.add(n)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
  });
});

describe('rate limit leases', () => {
  it('lease one request at a time for small limits, more for large ones, never over 100', () => {
    expect(leaseSize(2)).toBe(1);
    expect(leaseSize(600)).toBe(3);
    expect(leaseSize(10_000_000)).toBe(100);
  });
});

describe('integration options', () => {
  it('folds option_* parameters over the options hash and normalizes known options', () => {
    const messages: string[] = [];
    const changes = optionChanges(
      { options: { token: 'a', wrapper_key: 'detail', custom: 1 }, option_token: 'b', option_capture_additional_data: 'true', option_rate_limit_per_minute: '30' },
      messages,
    );
    expect(messages).toEqual([]);
    expect(changes).toEqual({ token: 'b', wrapper_key: 'detail', custom: 1, capture_additional_data: true, rate_limit_per_minute: 30 });
  });

  it('names the faulty option, unsets with null or an empty value, and is null when none is named', () => {
    const messages: string[] = [];
    optionChanges({ option_rate_limit_per_minute: 0, options: { capture_additional_data: 'maybe' } }, messages);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^options\.capture_additional_data/);
    expect(messages[1]).toMatch(/^option_rate_limit_per_minute/);
    expect(optionChanges({ name: 'x' }, [])).toBeNull();
    expect(mergeOptions({ token: 't', wrapper_key: 'w' }, optionChanges({ option_token: null, options: { wrapper_key: '' } }, []))).toEqual({});
  });
});
