// Counter adjustments held back while a piece of work runs, then written summed (lib/store/grouped-
// writes.ts adds to them): an escalation step's fan-out writes its workflows and its notifications
// one channel after the other, each with its counts and owner counts, and would otherwise pay one ADD
// per record and counter item. Apart from grouped-writes so that the use cases that open such a scope
// (the escalation step, routing) reach no table primitive.
import { ContextSlot } from '../async-context';
import { settleUnhurried } from '../group-commit';
import { isZeroDelta, type CountDelta } from './count-delta';
import { placeSpreadFields } from './spread-fields';

/** Counter item (`<pk>\0<sk>`) → field → sum, while its work runs. */
type HeldCounts = Map<string, Record<string, CountDelta>>;

const deferred = new ContextSlot<{ sums: HeldCounts; open: boolean }>('deferred counts');

/** The sums of the scope this call runs in, while its work runs (a timer or a promise the work left
 * running keeps its context after the sums were written: its adjustments are written at once then). */
export function heldCounts(): HeldCounts | undefined {
  const scope = deferred.getStore();
  return scope?.open ? scope.sums : undefined;
}

type HeldWriter = (counterItem: string, sum: Record<string, CountDelta>) => Promise<void>;
let writeHeld: HeldWriter | null = null;

/** Set by lib/store/grouped-writes.ts, the only module that adds to the sums (unhurried writes). */
export function writeHeldCountsWith(writer: HeldWriter): void {
  writeHeld = writer;
}

/** A late write's failure, told where the local runtime prints its warnings (the store logs nothing itself). */
function countsFailed(error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.emitWarning(`counts: a summed update failed after its work (the recount repairs it): ${reason}`, 'UnhurriedCountsWarning');
}

/**
 * Runs `work` holding back every counter adjustment it makes, then writes them summed, one update per
 * counter item, before answering (also when `work` fails: what it wrote is counted). The window of a
 * crash between a record and its count grows from one write to the work's (the recount repairs it).
 */
export async function withCountsDeferred<T>(work: () => Promise<T>): Promise<T> {
  if (heldCounts()) return work();
  const scope = { sums: new Map() as HeldCounts, open: true };
  try {
    return await deferred.run(scope, work);
  } finally {
    scope.open = false;
    // A count kept in several items goes to the one this work writes anyway (./spread-fields).
    placeSpreadFields(scope.sums);
    const writes: Promise<void>[] = [];
    for (const [counterItem, sum] of scope.sums) {
      const nonZero = Object.fromEntries(Object.entries(sum).filter(([, n]) => !isZeroDelta(n)));
      if (Object.keys(nonZero).length > 0 && writeHeld) writes.push(writeHeld(counterItem, nonZero));
    }
    // In a process that outlives the work (the local runtime's workers) the sums may wait for other
    // work's (lib/group-commit.ts): the work is done without waiting for them. A count that fails
    // there is one the recount repairs, as one whose write failed here would be (a retried message
    // never counts again what its first run recorded).
    await settleUnhurried(writes, countsFailed);
  }
}
