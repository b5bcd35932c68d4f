import { describe, expect, it, vi } from 'vitest';
import { GroupCommit, groupCommitsIdle, hurryUnhurried, lateWrites, setUnhurriedLinger, settleUnhurried } from '../lib/group-commit';
import { runInBackground } from '../lib/sdk';

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

describe('group commit lanes', () => {
  /** A commit whose writes each wait for the test to release them; `groups` shows what was written, in order. */
  function heldCommit(options: { ordered?: boolean } = {}) {
    const groups: string[][] = [];
    const releases: Array<() => void> = [];
    const commit = new GroupCommit<string>(
      async (items) => {
        groups.push(items);
        await new Promise<void>((release) => releases.push(release));
      },
      25,
      1,
      options,
    );
    return { commit, groups, releases };
  }
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };

  it("writes a request's item at once while a worker's group holds the only slot", async () => {
    const { commit, groups, releases } = heldCommit();
    const worker = runInBackground(() => commit.add('worker'));
    await turns(2);
    const workerLater = runInBackground(() => commit.add('worker later'));
    const request = commit.add('request');
    await turns(3);
    // The request's item did not wait for the worker's group; the later worker item rode along with it.
    expect(groups).toEqual([['worker'], ['request', 'worker later']]);
    releases.forEach((release) => release());
    await Promise.all([worker, workerLater, request]);
  });

  it('keeps an ordered commit to one group in flight, requests included', async () => {
    const { commit, groups, releases } = heldCommit({ ordered: true });
    const worker = runInBackground(() => commit.add('worker'));
    await turns(2);
    const request = commit.add('request');
    await turns(3);
    expect(groups).toEqual([['worker']]);
    releases[0]();
    await turns(3);
    expect(groups).toEqual([['worker'], ['request']]);
    releases[1]();
    await Promise.all([worker, request]);
  });
});

describe('unhurried writes', () => {
  const turns = async (n = 3) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };

  async function withLinger(ms: number, body: () => Promise<void>): Promise<void> {
    // setTimeout alone is faked: the turns (setImmediate) the commit takes stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    setUnhurriedLinger(ms);
    try {
      await body();
    } finally {
      setUnhurriedLinger(0);
      vi.useRealTimers();
    }
  }

  const recorder = () => {
    const groups: string[][] = [];
    const commit = new GroupCommit<string>(async (items) => void groups.push(items), 25, 1);
    return { groups, commit };
  };

  it("background work's unhurried writes of different turns wait for each other up to the linger", () =>
    withLinger(100, async () => {
      const { groups, commit } = recorder();
      const a = runInBackground(() => commit.add('a', { unhurried: true }));
      await turns();
      // At rest but for the linger's timer: nothing is written yet, and the commit is not idle.
      expect(groups).toEqual([]);
      expect(commit.idle).toBe(false);
      expect(groupCommitsIdle()).toBe(false);
      const b = runInBackground(() => commit.add('b', { unhurried: true }));
      await turns();
      expect(groups).toEqual([]);
      await vi.advanceTimersByTimeAsync(100);
      await Promise.all([a, b]);
      expect(groups).toEqual([['a', 'b']]);
      expect(commit.idle).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    }));

  it('a hurried write takes the waiting unhurried ones along at once, and ends their wait', () =>
    withLinger(60_000, async () => {
      const { groups, commit } = recorder();
      const waiting = runInBackground(() => commit.add('counts', { unhurried: true }));
      await turns();
      const hurried = runInBackground(() => commit.add('now'));
      await Promise.all([waiting, hurried]);
      expect(groups).toEqual([['counts', 'now']]);
      expect(vi.getTimerCount()).toBe(0);
      expect(commit.idle).toBe(true);
    }));

  it('hurrying writes what lingers now and settles once it is written', () =>
    withLinger(60_000, async () => {
      const { groups, commit } = recorder();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const slow = new GroupCommit<string>(
        async (items) => {
          groups.push(items);
          await gate;
        },
        25,
        1,
      );
      const a = runInBackground(() => commit.add('a', { unhurried: true }));
      const b = runInBackground(() => slow.add('b', { unhurried: true }));
      await turns();
      expect(groups).toEqual([]);
      let hurried = false;
      const hurry = hurryUnhurried().then(() => (hurried = true));
      await a;
      await turns();
      // Both are written without the linger's timer; the hurry waits for the slow one's answer.
      expect(groups).toEqual([['a'], ['b']]);
      expect(hurried).toBe(false);
      release();
      await Promise.all([b, hurry]);
      expect(hurried).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
      await hurryUnhurried();
    }));

  it('work does not wait for its lingering writes: lateWrites does, and their failure goes to the handler', () =>
    withLinger(60_000, async () => {
      const failing = new GroupCommit<string>(
        async () => {
          throw new Error('store down');
        },
        25,
        1,
      );
      const failures: unknown[] = [];
      await runInBackground(() => settleUnhurried([failing.add('counts', { unhurried: true })], (error) => failures.push(error)));
      // The work is done, its write still waits for company.
      expect(failing.idle).toBe(false);
      expect(failures).toEqual([]);
      await hurryUnhurried();
      await lateWrites();
      expect(failures).toEqual([new Error('store down')]);
      // A request's work (or any with no linger) waits for its write, and sees its failure.
      await expect(settleUnhurried([failing.add('request', { unhurried: true })], (error) => failures.push(error))).rejects.toThrow(
        'store down',
      );
      expect(failures).toHaveLength(1);
    }));

  it("a request's unhurried write, and any with no linger set, is written at the next turn", async () => {
    await withLinger(60_000, async () => {
      const { groups, commit } = recorder();
      await commit.add('request', { unhurried: true });
      expect(groups).toEqual([['request']]);
      expect(vi.getTimerCount()).toBe(0);
    });
    await withLinger(0, async () => {
      const { groups, commit } = recorder();
      await runInBackground(() => commit.add('worker', { unhurried: true }));
      expect(groups).toEqual([['worker']]);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
