// The slots of lib/async-context.ts behave as AsyncLocalStorages of their own: a value follows its
// work across awaits and timers, one slot's run or exit leaves the others as they are, and work
// running side by side sees its own values.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ContextSlot } from '../lib/async-context';

const actor = new ContextSlot<string>('actor');
const lane = new ContextSlot<boolean>('lane');

describe('context slots', () => {
  it('hold their values across awaits and timers, apart from each other', async () => {
    expect(actor.getStore()).toBeUndefined();
    const seen = await actor.run('alice', async () => {
      await sleep(1);
      return lane.run(true, async () => {
        await Promise.resolve();
        const inner = await new Promise<[string | undefined, boolean | undefined]>((resolve) =>
          setTimeout(() => resolve([actor.getStore(), lane.getStore()]), 1),
        );
        const exited = await lane.exit(async () => {
          await sleep(1);
          return [actor.getStore(), lane.getStore()];
        });
        const replaced = await actor.run('bob', async () => [actor.getStore(), lane.getStore()]);
        return { inner, exited, replaced, after: [actor.getStore(), lane.getStore()] };
      });
    });
    expect(seen).toEqual({
      inner: ['alice', true],
      exited: ['alice', undefined],
      replaced: ['bob', true],
      after: ['alice', true],
    });
    expect([actor.getStore(), lane.getStore()]).toEqual([undefined, undefined]);
  });

  it('keeps work running side by side apart', async () => {
    const names = ['a', 'b', 'c', 'd'];
    const seen = await Promise.all(
      names.map((name, i) =>
        actor.run(name, async () => {
          await sleep(4 - i);
          const first = actor.getStore();
          await sleep(i);
          return [first, actor.getStore()];
        }),
      ),
    );
    expect(seen).toEqual(names.map((name) => [name, name]));
  });

  it('exits a slot that holds nothing as a plain call', () => {
    expect(lane.exit(() => lane.getStore() ?? 'none')).toBe('none');
    expect(lane.run(false, () => lane.getStore())).toBe(false);
  });
});
