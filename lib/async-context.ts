// What the service carries along its asynchronous calls (who acts, the background lane, held counter
// sums, a worker's or the sweeper's name) in one AsyncLocalStorage. Node 20 and 22 copy the store
// of every AsyncLocalStorage in use into every promise made (a promise hook per storage), so five
// storages cost five times one's on every await of every SDK call: ~6 % of the local process's main
// thread under load with five. Each value is a slot of the one storage; a slot is run, read and
// exited as an AsyncLocalStorage is, and one slot's run never changes what another slot holds.
import { AsyncLocalStorage } from 'node:async_hooks';

type Frame = Readonly<Record<symbol, unknown>>;

const frames = new AsyncLocalStorage<Frame>();

export class ContextSlot<T> {
  readonly #key: symbol;

  constructor(name: string) {
    this.#key = Symbol(name);
  }

  /** Runs `work` with this slot holding `value` (the other slots as they are). */
  run<R>(value: T, work: () => R): R {
    return frames.run({ ...frames.getStore(), [this.#key]: value }, work);
  }

  /** Runs `work` with this slot empty (the other slots as they are). */
  exit<R>(work: () => R): R {
    const frame = frames.getStore();
    if (!frame || !(this.#key in frame)) return work();
    const { [this.#key]: _left, ...rest } = frame;
    return frames.run(rest, work);
  }

  /** What this slot holds where the caller runs. */
  getStore(): T | undefined {
    return frames.getStore()?.[this.#key] as T | undefined;
  }
}
