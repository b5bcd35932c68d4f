// The sweeper's escalation duty: a timer lost with a crashed queue still fires. Every state item
// with a step due (or an outbox a crashed step left) and every person's waiting SMS or call is in
// the due index; whatever is due longer than a moment ago is run here, exactly as its message would
// have run it (the steps are idempotent, so a message that was only slow changes nothing twice).
import { now as clockNow } from '../clock';
import { logger } from '../log';
import { listDue } from '../store/due-index';
import { flushWaiting } from './flush-waiting';
import { runStep } from './run-step';
import { parseEscalationDueKey } from './store';

/** Due this long ago, a timer message is taken as lost (its own message normally runs it first). */
export const SWEEP_GRACE_MS = 2_000;
const PER_SHARD = 200;
const CONCURRENCY = 8;

export interface EscalationSweep {
  due: number;
  stepped: number;
  flushed: number;
  failed: number;
}

export async function sweepEscalations(now = clockNow()): Promise<EscalationSweep> {
  const due = await listDue(now - SWEEP_GRACE_MS, PER_SHARD);
  const result: EscalationSweep = { due: due.length, stepped: 0, flushed: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const entry = due[next++];
      try {
        const escalation = parseEscalationDueKey(entry.what);
        if (escalation) {
          await runStep(escalation.accountId, escalation.alertId, { kind: 'due' });
          result.stepped += 1;
          continue;
        }
        const [kind, accountId, accountUserId, channel] = entry.what.split('#');
        if (kind === 'RATE' && (channel === 'sms' || channel === 'voice')) {
          await flushWaiting(accountId, accountUserId, channel);
          result.flushed += 1;
        }
      } catch (error) {
        result.failed += 1;
        logger.warn('sweeper: escalation step failed; the next sweep tries again', { what: entry.what, error: error as Error });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return result;
}
