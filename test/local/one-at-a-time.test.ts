// The local runtime's timers start a scheduled function (the sweeper) only when its previous timed
// run has ended (infra/local/runtime.ts oneAtATime): a tick during a run does nothing.
import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../infra/local/runtime';

describe('a scheduled function run by the local timer', () => {
  it('is not started again while its previous run goes on, and is once that run has ended, even a failed one', async () => {
    const finishes: (() => void)[] = [];
    let started = 0;
    const tick = oneAtATime(async () => {
      started += 1;
      await new Promise<void>((resolve) => finishes.push(resolve));
      if (started === 2) throw new Error('the sweep failed');
    });
    const first = tick();
    expect(started).toBe(1);
    expect(await tick()).toBe(false);
    expect(await tick()).toBe(false);
    expect(started).toBe(1);
    finishes[0]();
    expect(await first).toBe(true);

    const second = tick();
    expect(started).toBe(2);
    expect(await tick()).toBe(false);
    finishes[1]();
    await expect(second).rejects.toThrow('the sweep failed');
    const third = tick();
    expect(started).toBe(3);
    finishes[2]();
    expect(await third).toBe(true);
  });
});
