// lib/load-once.ts: a dynamic import asked of the module loader once per process; a failed load is
// forgotten, so the next call tries again.
import { describe, expect, it } from 'vitest';
import { loadOnce } from '../lib/load-once';

describe('loadOnce', () => {
  it('loads once: every call shares the first promise', async () => {
    let loads = 0;
    const load = loadOnce(() => {
      loads += 1;
      return import('../lib/ids');
    });
    const [a, b] = await Promise.all([load(), load()]);
    const c = await load();
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
    expect(typeof c.newId).toBe('function');
  });

  it('forgets a failed load: the next call tries again', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk missing');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('chunk missing');
    expect(await load()).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
