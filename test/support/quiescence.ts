// Brings the local runtime to rest before a test asserts, in the manner of goalert's smoketest
// harness (Trigger, FastForward): a test that asserts something did NOT happen first lets
// everything that was going to happen happen, so the assertion fails when the bug is there, on a
// slow machine too, and never waits a fixed time.
//
//   settle       every queue empty (no message waiting or in flight), every poller idle, every
//                group-committed write answered, and all of it twice in a row with no batch
//                handled in between. Delayed messages are timers: they are not waited for (the
//                service's due indexes fire them when the clock passes their time, see passTime).
//   runDueSweeps the sweeper (the scheduled function) until one run finds nothing due, settling
//                after each run.
//   passTime     moves the service's clock forward, then runs the due sweeps.
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { groupCommitsIdle } from '../../lib/group-commit';
import { testClock } from './dependencies';
import type { TestService } from './runtime';

/** How often the queues are looked at: often on the embedded emulators, gently on an external endpoint (moto serves one request at a time). */
const pollMs = () => (process.env.AWS_ENDPOINT_URL ? 100 : 10);
const SETTLE_TIMEOUT_MS = 30_000;
const MAX_SWEEPS = 8;

interface Snapshot {
  at: string;
  waiting: Record<string, number>;
  busyPollers: number;
  batches: number;
  groupCommitsIdle: boolean;
}

async function snapshot(service: TestService, sqs: SQSClient): Promise<Snapshot> {
  const waiting: Record<string, number> = {};
  await Promise.all(
    Object.entries(service.runtime.queues).map(async ([name, { url }]) => {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      const count = Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
      if (count > 0) waiting[name] = count;
    }),
  );
  const pollers = service.runtime.pollers;
  return {
    at: new Date().toISOString(),
    waiting,
    busyPollers: pollers.reduce((sum, p) => sum + p.busy, 0),
    batches: pollers.reduce((sum, p) => sum + p.batches, 0),
    groupCommitsIdle: groupCommitsIdle(),
  };
}

const atRest = (s: Snapshot) => Object.keys(s.waiting).length === 0 && s.busyPollers === 0 && s.groupCommitsIdle;

/** Waits until nothing moves in the runtime (see above); fails, naming what still moved, after 30 s. */
export async function settle(service: TestService, timeoutMs = SETTLE_TIMEOUT_MS): Promise<void> {
  const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    const until = Date.now() + timeoutMs;
    let previous: Snapshot | null = null;
    for (;;) {
      const now = await snapshot(service, sqs);
      if (atRest(now) && previous && atRest(previous) && previous.batches === now.batches) return;
      if (Date.now() > until) throw new Error(`the runtime did not come to rest within ${timeoutMs} ms: ${JSON.stringify(now)}`);
      previous = now;
      await new Promise((resolve) => setTimeout(resolve, pollMs()));
    }
  } finally {
    sqs.destroy();
  }
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
