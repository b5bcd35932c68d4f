// Group commit, for store writes and queue sends: callers that arrive while earlier writes are in
// flight are written together in the next group, and each caller is answered once its own item is
// written. With one caller at a time (a Lambda instance serves one request) every group holds one
// item and nothing waits; under load the groups grow by themselves, so round trips per item fall
// exactly when they matter.

import { inBackground, runInBackground, runInForeground } from './sdk';

interface Waiting<T, R> {
  item: T;
  /** Added by background work (lib/sdk.ts): a group of only such items is written in the background lane. */
  background: boolean;
  /** May wait for others to join it (an unhurried write of background work, setUnhurriedLinger). */
  unhurried: boolean;
  /** Settles once an unhurried item is answered (hurryUnhurried waits for it); none for the others. */
  done?: Promise<void>;
  resolve: (result: R) => void;
  reject: (error: Error) => void;
}

/**
 * Writes one group. It may return one entry per item: an Error fails that caller alone, anything
 * else is that caller's result (a tiny id, say); returning nothing answers every caller.
 */
export type GroupWriter<T, R = void> = (items: T[]) => Promise<Array<R | Error | undefined> | void>;

/** Items added to any group commit of the process and not yet answered. */
let unanswered = 0;

/** Whether every group commit of the process has answered every caller (tests wait for this before asserting). */
export function groupCommitsIdle(): boolean {
  return unanswered === 0;
}

export interface GroupCommitOptions {
  /**
   * Groups must be written in the order their items came, one group at a time (maxInFlight 1): a
   * request's item then waits for the group before it like any other. Without it, a request's items
   * go first and have in-flight groups of their own (see pump).
   */
  ordered?: boolean;
}

type Lane = 'foreground' | 'background';

/**
 * How long an unhurried write of background work may wait for others to join its group (0: not at
 * all, as deployed, where an instance serves one batch and nothing would join). The local runtime,
 * whose queue workers share one process, sets it: at a steady 50 alerts a second the groups a burst
 * fills by itself hold one alert's writes each, and each counter item was an UpdateItem per alert.
 */
let unhurriedLingerMs = 0;

/** Sets how long unhurried writes of background work wait for company (ms; 0 turns it off). */
export function setUnhurriedLinger(ms: number): void {
  unhurriedLingerMs = Math.max(0, ms);
}

/** Whether an unhurried write added now waits for company: background work with a linger set. */
const unhurriedLingers = (): boolean => unhurriedLingerMs > 0 && inBackground();

/** Unhurried writes their work did not wait for, until each settles (lateWrites). */
const late = new Set<Promise<void>>();

/**
 * What work awaits of the unhurried writes it just added: the writes themselves, or, where they
 * linger, nothing: the process outlives the work (the local runtime), whose rest (groupCommitsIdle),
 * API reads (hurryUnhurried) and stop (lateWrites) wait for them; a failure then goes to `failed`.
 */
export function settleUnhurried(writes: readonly Promise<unknown>[], failed: (error: unknown) => void): Promise<void> {
  const all = Promise.all(writes).then(() => undefined);
  if (!unhurriedLingers()) return all;
  const settled = all.catch(failed).finally(() => late.delete(settled));
  late.add(settled);
  return Promise.resolve();
}

/** Settles once every unhurried write its work left behind (settleUnhurried) has settled. */
export function lateWrites(): Promise<void> {
  return Promise.all([...late]).then(() => undefined);
}

/** Commits whose unhurried items wait for their linger now. */
const lingeringCommits = new Set<{ hurry(): Promise<void>[] }>();

/**
 * Writes every unhurried item waiting for its linger now, and settles once each of them is answered.
 * The local runtime's API calls it before a read (infra/local/api-gateway.ts): a read sees what the
 * work that finished before it counted, as it did when nothing lingered.
 */
export function hurryUnhurried(): Promise<void> {
  if (lingeringCommits.size === 0) return Promise.resolve();
  const waits = [...lingeringCommits].flatMap((commit) => commit.hurry());
  return Promise.all(waits).then(() => undefined);
}

export interface AddOptions {
  /**
   * Nothing waits for this write but the end of its work (the summed counts a queue message's work
   * wrote, lib/store/deferred-counts.ts): in background work it may wait up to the unhurried linger
   * for others to share its group. A group holding any other item is written as soon as ever.
   */
  unhurried?: boolean;
}

export class GroupCommit<T, R = void> {
  private readonly waiting: Waiting<T, R>[] = [];
  private readonly inFlight: Record<Lane, number> = { foreground: 0, background: 0 };
  private scheduled = false;
  private lingering: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly write: GroupWriter<T, R>,
    private readonly maxGroup: number,
    private readonly maxInFlight: number,
    private readonly options: GroupCommitOptions = {},
  ) {}

  /** Nothing waiting and nothing in flight. */
  get idle(): boolean {
    return (
      this.inFlight.foreground + this.inFlight.background === 0 && this.waiting.length === 0 && !this.scheduled && this.lingering === null
    );
  }

  add(item: T, options: AddOptions = {}): Promise<R> {
    unanswered += 1;
    const background = inBackground();
    const unhurried = options.unhurried === true && background && unhurriedLingerMs > 0;
    let settle: (() => void) | undefined;
    const done = unhurried ? new Promise<void>((resolve) => (settle = resolve)) : undefined;
    return new Promise<R>((resolve, reject) => {
      const answered = () => {
        unanswered -= 1;
        settle?.();
      };
      this.waiting.push({
        item,
        background,
        unhurried,
        done,
        resolve: (result) => {
          answered();
          resolve(result);
        },
        reject: (error) => {
          answered();
          reject(error);
        },
      });
      // Unhurried callers wait for company up to the linger (unless something else writes first);
      // any other caller is written at the next turn, with every caller of this turn in its group.
      if (unhurried) {
        if (!this.scheduled && this.lingering === null) {
          this.lingering = setTimeout(() => {
            this.stopLingering();
            this.pump();
          }, unhurriedLingerMs);
          lingeringCommits.add(this);
        }
      } else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /**
   * Starts every group the in-flight limits allow. Under load the queue workers keep every slot busy
   * with groups that wait in the background lane of the SDK's sockets (lib/sdk.ts) behind hundreds of
   * their own calls: a request's item that waited for one of those slots would wait seconds for them
   * (an API create answered in 800 ms, every hop of its writes behind a worker's group). So a
   * request's items are taken first, with background items filling the rest of their group, and
   * groups holding a request's item have maxInFlight slots of their own; background-only groups keep
   * theirs. An ordered commit keeps one queue and one limit: its groups must land in order.
   */
  private pump(): void {
    for (;;) {
      const group = this.nextGroup();
      if (!group) {
        // The unhurried callers went with a group of others: their wait is over.
        if (this.waiting.length === 0) this.stopLingering();
        return;
      }
      const lane: Lane = group.every((w) => w.background) ? 'background' : 'foreground';
      this.inFlight[lane] += 1;
      // A request's item never waits in the background lane because a worker's item opened its group.
      const write = () => this.write(group.map((w) => w.item));
      (lane === 'background' ? runInBackground(write) : runInForeground(write))
        .then(
          (results) =>
            group.forEach((w, i) => {
              const result = results?.[i];
              if (result instanceof Error) w.reject(result);
              else w.resolve(result as R);
            }),
          (error: unknown) => group.forEach((w) => w.reject(error instanceof Error ? error : new Error(String(error)))),
        )
        .finally(() => {
          this.inFlight[lane] -= 1;
          this.pump();
        });
    }
  }

  /** Ends the linger's wait (its timer fired, or the items it held left with others). */
  private stopLingering(): void {
    if (this.lingering === null) return;
    clearTimeout(this.lingering);
    this.lingering = null;
    lingeringCommits.delete(this);
  }

  /** Writes the unhurried items now (hurryUnhurried): what settles once each is answered. */
  hurry(): Promise<void>[] {
    const done = this.waiting.flatMap((w) => (w.done ? [w.done] : []));
    this.stopLingering();
    this.pump();
    return done;
  }

  /** The next group to write now, or null when none may start. */
  private nextGroup(): Waiting<T, R>[] | null {
    if (this.waiting.length === 0) return null;
    if (this.options.ordered) {
      if (this.inFlight.foreground + this.inFlight.background >= this.maxInFlight) return null;
      return this.waiting.splice(0, this.maxGroup);
    }
    if (this.inFlight.foreground < this.maxInFlight && this.waiting.some((w) => !w.background)) {
      const requests = this.waiting.filter((w) => !w.background).slice(0, this.maxGroup);
      const taken = new Set(requests);
      const riders = this.waiting.filter((w) => w.background).slice(0, this.maxGroup - requests.length);
      for (const w of riders) taken.add(w);
      this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((w) => !taken.has(w)));
      return [...requests, ...riders];
    }
    if (this.inFlight.background < this.maxInFlight && this.waiting.some((w) => w.background)) {
      const workers = this.waiting.filter((w) => w.background).slice(0, this.maxGroup);
      const taken = new Set(workers);
      this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((w) => !taken.has(w)));
      return workers;
    }
    return null;
  }
}

/** One group commit per key (an account, say), forgotten again once idle. */
export class KeyedGroupCommit<T, R = void> {
  private readonly commits = new Map<string, GroupCommit<T, R>>();

  constructor(
    private readonly make: (key: string) => GroupWriter<T, R>,
    private readonly maxGroup: number,
    private readonly maxInFlight: number,
    private readonly options: GroupCommitOptions = {},
  ) {}

  add(key: string, item: T, options: AddOptions = {}): Promise<R> {
    let commit = this.commits.get(key);
    if (!commit) {
      commit = new GroupCommit(this.make(key), this.maxGroup, this.maxInFlight, this.options);
      this.commits.set(key, commit);
    }
    const used = commit;
    return used.add(item, options).finally(() => {
      if (this.commits.get(key) === used && used.idle) this.commits.delete(key);
    });
  }
}
