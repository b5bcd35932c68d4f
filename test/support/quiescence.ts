// Brings the local runtime to rest before a test asserts, in the manner of goalert's smoketest
// harness (Trigger, FastForward): a test that asserts something did NOT happen first lets
// everything that was going to happen happen, so the assertion fails when the bug is there, on a
// slow machine too, and never waits a fixed time.
//
//   settle       every queue empty (no message waiting or in flight), every poller idle, every
//                group-committed write answered, and all of it twice in a row with no batch
//                handled in between. Delayed messages are timers: they are not waited for (the
//                service's due indexes fire them when the clock passes their time, see passTime).
//                A slow backend (moto under load) is waited for as long as it makes progress: it
//                fails once nothing has moved for its timeout (stuck), or after four timeouts.
//   untilArrived what a test waits for (a request at a stand-in), for as long as the runtime still
//                holds work that could bring it, delayed messages (a retry's backoff) included: it
//                fails once everything is at rest without it, or nothing has moved for the timeout.
//   runDueSweeps the sweeper (the scheduled function) until one run finds nothing due, settling
//                after each run.
//   passTime     moves the service's clock forward, then runs the due sweeps.
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { groupCommitsIdle } from '../../lib/group-commit';
import { testClock } from './dependencies';
import type { TestService } from './runtime';

/** How often the queues are looked at: often on the embedded emulators, gently on an external endpoint (moto serves one request at a time). */
const pollMs = () => (process.env.AWS_ENDPOINT_URL ? 100 : 10);
/**
 * While nothing moves (a handler busy on a long call, a test's probe waiting on a timer), the wait
 * between looks doubles up to this many times the first: each look asks every queue for its counts
 * over HTTP, and at 10 ms that cost a core a good part of every wait. Anything that moves puts it
 * back to the first, so the two looks at rest that end a settle come as soon as before.
 */
const BACKOFF_LIMIT = 8;
const SETTLE_TIMEOUT_MS = 30_000;
const MAX_SWEEPS = 8;

interface Snapshot {
  at: string;
  waiting: Record<string, number>;
  /** Messages not yet visible (a delay): timers, which settle does not wait for. */
  delayed: Record<string, number>;
  busyPollers: number;
  batches: number;
  groupCommitsIdle: boolean;
}

async function snapshot(service: TestService, sqs: SQSClient): Promise<Snapshot> {
  const waiting: Record<string, number> = {};
  const delayed: Record<string, number> = {};
  await Promise.all(
    Object.entries(service.runtime.queues).map(async ([name, { url }]) => {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
        }),
      );
      const count = Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
      if (count > 0) waiting[name] = count;
      const later = Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
      if (later > 0) delayed[name] = later;
    }),
  );
  const pollers = service.runtime.pollers;
  return {
    at: new Date().toISOString(),
    waiting,
    delayed,
    busyPollers: pollers.reduce((sum, p) => sum + p.busy, 0),
    batches: pollers.reduce((sum, p) => sum + p.batches, 0),
    groupCommitsIdle: groupCommitsIdle(),
  };
}

const atRest = (s: Snapshot) => Object.keys(s.waiting).length === 0 && s.busyPollers === 0 && s.groupCommitsIdle;
/** At rest with no timer left either: nothing more can happen until the clock moves (or a test acts). */
const idle = (s: Snapshot) => atRest(s) && Object.keys(s.delayed).length === 0;

/** Whether anything moved between two snapshots: a batch handled, or messages waiting or delayed changed. */
const moved = (a: Snapshot, b: Snapshot) =>
  a.batches !== b.batches || JSON.stringify([a.waiting, a.delayed]) !== JSON.stringify([b.waiting, b.delayed]);

/**
 * Polls the runtime until `done(previous, now)`; fails once nothing has moved for `timeoutMs` (stuck),
 * or after four times that in all (busy without end), naming what it saw last.
 */
async function watch(
  service: TestService,
  timeoutMs: number,
  what: string,
  done: (previous: Snapshot | null, now: Snapshot) => boolean | Promise<boolean>,
) {
  const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    const started = Date.now();
    let lastMove = started;
    let previous: Snapshot | null = null;
    let wait = pollMs();
    for (;;) {
      const now = await snapshot(service, sqs);
      if (await done(previous, now)) return;
      if (previous && moved(previous, now)) {
        lastMove = Date.now();
        wait = pollMs();
      } else if (previous) {
        wait = Math.min(wait * 2, BACKOFF_LIMIT * pollMs());
      }
      if (Date.now() - lastMove > timeoutMs) throw new Error(`${what}: nothing moved for ${timeoutMs} ms: ${JSON.stringify(now)}`);
      if (Date.now() - started > 4 * timeoutMs) throw new Error(`${what}: still busy after ${4 * timeoutMs} ms: ${JSON.stringify(now)}`);
      previous = now;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } finally {
    sqs.destroy();
  }
}

/** Waits until nothing moves in the runtime (see above); fails, naming what still moved, when it is stuck. */
export async function settle(service: TestService, timeoutMs = SETTLE_TIMEOUT_MS): Promise<void> {
  await watch(
    service,
    timeoutMs,
    'the runtime did not come to rest',
    (previous, now) => atRest(now) && previous !== null && atRest(previous) && previous.batches === now.batches,
  );
}

/**
 * Waits for `arrived` to return a value (what a test waits for: requests at a stand-in), while the
 * runtime still holds work that could bring it (see above). A check that it has not arrived once
 * everything is idle is the honest failure: nothing is left that could bring it.
 */
export async function untilArrived<T>(
  service: TestService,
  arrived: () => T | undefined | Promise<T | undefined>,
  what: string,
): Promise<T> {
  let found = await arrived();
  if (found !== undefined) return found;
  let previousIdle = false;
  await watch(service, SETTLE_TIMEOUT_MS, `waiting for ${what}`, async (_previous, now) => {
    found = await arrived();
    if (found !== undefined) return true;
    // Idle twice in a row: a message handled in between would have shown as busy.
    const stop = previousIdle && idle(now);
    previousIdle = idle(now);
    return stop;
  });
  found ??= await arrived();
  if (found === undefined) throw new Error(`${what} did not come, and the runtime is at rest with nothing left that could bring it`);
  return found;
}

type SweepResult = Record<string, { due?: number; changed?: number } | null>;

/** Whether a sweeper run found anything to do (a duty that failed counts as nothing: it is logged). */
function foundWork(result: SweepResult): boolean {
  return Object.values(result).some((duty) => (duty?.due ?? 0) > 0 || (duty?.changed ?? 0) > 0);
}

/** Runs the sweeper until a run finds nothing due, settling before and after each run. */
export async function runDueSweeps(service: TestService): Promise<void> {
  await settle(service);
  for (let run = 0; run < MAX_SWEEPS; run++) {
    const result = (await service.runtime.runScheduled('sweeper')) as SweepResult;
    await settle(service);
    if (!foundWork(result)) return;
  }
  throw new Error(`the sweeper still found work due after ${MAX_SWEEPS} runs`);
}

/** Moves the service's clock forward by `ms`, then runs every sweep now due and settles. */
export async function passTime(service: TestService, ms: number): Promise<void> {
  await settle(service);
  testClock.advance(ms);
  await runDueSweeps(service);
}
