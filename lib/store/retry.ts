// Versioned read-modify-write with retries: every change of a stored object is a conditional write
// on the version it read, and a lost race reads again and re-applies the change, so concurrent
// edits never drop each other (nor answer a needless 409).

const RACED: unique symbol = Symbol('raced');

/** Returned by an attempt that lost a race: the next attempt starts over. */
export type Raced = typeof RACED;
export const raced = (): Raced => RACED;

/** Runs `attempt` until it returns anything but raced(), at most `times` times; then `exhausted()`. */
export async function retryWhileRaced<R>(
  times: number,
  attempt: (n: number) => Promise<R | Raced>,
  exhausted: () => R | Promise<R>,
): Promise<R> {
  for (let n = 0; n < times; n++) {
    const result = await attempt(n);
    if (result !== RACED) return result;
  }
  return exhausted();
}

const DONE: unique symbol = Symbol('done');

/** A final answer from `edit`: nothing (more) to write. */
export interface Done<R> {
  [DONE]: true;
  result: R;
}
export function done<R>(result: R): Done<R>;
export function done(): Done<undefined>;
export function done<R>(result?: R): Done<R | undefined> {
  return { [DONE]: true, result };
}
function isDone<R>(value: unknown): value is Done<R> {
  return typeof value === 'object' && value !== null && DONE in value;
}

export interface VersionedUpdate<T, R> {
  /** Attempts before giving up (default 10). */
  attempts?: number;
  /** The object as stored now (null: absent); attempt 0 may return what the caller already holds. */
  load(attempt: number): Promise<T | null> | T | null;
  /** The change: the next object (version raised by one), or done(result) when nothing is to be written. */
  edit(current: T | null): Promise<T | Done<R>> | T | Done<R>;
  /** Writes `next` only while `current` is what is stored; false when another write came first. */
  save(next: T, current: T): Promise<boolean>;
  /** The answer once `next` is saved (default: `next`). */
  saved?(next: T, current: T): Promise<R> | R;
  /** When every attempt lost its race: throw, or answer. */
  exhausted(): R | Promise<R>;
}

/** Loads, edits and saves one versioned object until the save wins a race. */
export async function updateWithRetry<T, R = T>(update: VersionedUpdate<T, R>): Promise<R> {
  return retryWhileRaced(
    update.attempts ?? 10,
    async (n) => {
      const current = await update.load(n);
      const next = await update.edit(current);
      if (isDone<R>(next)) return next.result;
      if (current === null) throw new Error('updateWithRetry: edit returned a change of an absent object');
      if (!(await update.save(next, current))) return raced();
      return update.saved ? update.saved(next, current) : (next as unknown as R);
    },
    () => update.exhausted(),
  );
}
