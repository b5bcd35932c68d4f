// The pieces of the service the tests replace (lib/dependencies.ts): a clock they move forward
// instead of waiting, and the memory outbox whose messages they read. startService installs them
// for the runtime's lifetime (test files of one worker share them, one file after another).
import { environmentChanged, type Clock, type Dependencies } from '../../lib/dependencies';
import type { OutgoingMessage } from '../../lib/notify/providers/provider';

/** Wall time plus how far the test moved it, or a time it stopped at. */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;

  now(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }

  /** Moves the service's time forward (the whole process shares it). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('advance takes a non-negative number of milliseconds');
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
  }

  /**
   * Stops the service's time where it is: from now on it moves only with `advance` (a test of a
   * rate measures exactly, however slow the machine; a lease a test holds a step under cannot run
   * out). An escalation's timers then wait for the clock: only for tests that move it past them.
   */
  freeze(): number {
    this.frozenAt = this.now();
    return this.frozenAt;
  }

  /** Back to wall time (after each test, so that no test starts where another left the clock). */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = null;
  }
}

export const testClock = new TestClock();

const memoryOutbox: OutgoingMessage[] = [];

/** Every message OUTBOX=memory kept in this test file, oldest first. */
export function outboxMessages(): readonly OutgoingMessage[] {
  return memoryOutbox;
}

/** A new service's outbox starts empty (test files run one after another in one process). */
export function forgetOutboxMessages(): void {
  memoryOutbox.length = 0;
}

/** The newest message that matches, as it went out (its full text, links and secrets included). */
export function lastMessage(match: (message: OutgoingMessage) => boolean): OutgoingMessage | undefined {
  return memoryOutbox.findLast(match);
}

/**
 * scrypt at 2^4 instead of 2^15 for the hundreds of people the tests create and log in (each hash is
 * ~100 ms of CPU at 2^15, 2.6 ms at 2^10, 0.06 ms here): what a test of a login checks is which
 * password verifies, which the cost does not change (verification reads the cost from the stored
 * hash); test/auth/passwords.test.ts checks production's cost, and a hash made at another.
 */
const TEST_PASSWORD_HASH_COST = 1 << 4;

export const testDependencies: Partial<Dependencies> = { clock: testClock, memoryOutbox, passwordHashCost: TEST_PASSWORD_HASH_COST };

/**
 * Sets environment variables (undefined removes one) until the returned function puts the old values
 * back; the service reads its configuration afresh both times.
 */
export function changeEnvironment(variables: Record<string, string | undefined>): () => void {
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    environmentChanged();
  };
  apply(variables);
  return () => apply(before);
}
