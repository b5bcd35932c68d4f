import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../lib/group-commit';

describe('group commit', () => {
  it('writes callers of one turn together, and those arriving meanwhile in the next group', async () => {
    const groups: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const commit = new GroupCommit<number>(
      async (items) => {
        groups.push(items);
        if (groups.length === 1) await gate;
      },
      25,
      1,
    );
    const first = [1, 2, 3].map((n) => commit.add(n));
    await new Promise((r) => setImmediate(r));
    const later = [4, 5, 6, 7].map((n) => commit.add(n));
    // The turn in which the second group would be written (were the first not still in flight) has passed.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(groups).toEqual([[1, 2, 3]]);
    release();
    await Promise.all([...first, ...later]);
    expect(groups).toEqual([
      [1, 2, 3],
      [4, 5, 6, 7],
    ]);
  });

  it('splits groups at the maximum size and reports failures to their own callers only', async () => {
    const commit = new GroupCommit<number>(async (items) => items.map((n) => (n % 2 === 0 ? new Error(`even ${n}`) : undefined)), 2, 4);
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => commit.add(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
  });

  it('rejects every caller of a group whose write throws', async () => {
    const commit = new GroupCommit<number>(
      async () => {
        throw new Error('store down');
      },
      10,
      1,
    );
    const results = await Promise.allSettled([1, 2].map((n) => commit.add(n)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
  });
});

describe('group results', () => {
  it('hands each caller its own result, and an Error fails that caller alone', async () => {
    const commit = new GroupCommit<number, number>(async (items) => items.map((n) => (n === 3 ? new Error('three') : n * 10)), 10, 1);
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => commit.add(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([10, 20, 'failed', 40]);
  });
});
