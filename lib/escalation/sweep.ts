// The sweeper's escalation duty: a timer lost with a crashed queue still fires. Every state item
// with a step due (or an outbox a crashed step left) and every person's waiting SMS or call is in
// the due index; whatever is due longer than a moment ago is run here, exactly as its message would
// have run it (the steps are idempotent, so a message that was only slow changes nothing twice).
import { now as clockNow } from '../clock';
import { logger } from '../log';
import { listDue } from '../store/due-index';
import { scheduleFlush } from '../notify/rate-limit';
import { flushWaiting } from './flush-waiting';
import { runStep } from './run-step';
import { sendEffects } from './send-effects';
import { getEscalation, parseEscalationDueKey } from './store';
import { scheduleDue } from './timers';

/** Due this long ago, a timer message is taken as lost (its own message normally runs it first). */
export const SWEEP_GRACE_MS = 2_000;
const PER_SHARD = 200;
const CONCURRENCY = 8;

/** At start-up, timers due within this time are re-armed (later ones are found by the sweeper when due). */
const REARM_AHEAD_MS = 86_400_000;

export interface EscalationSweep {
  due: number;
  stepped: number;
  flushed: number;
  failed: number;
  rearmed: number;
}

/**
 * `startup` (the local runtime starting on a DATA_DIR whose embedded queue lost its messages): what
 * is due runs at once, without the grace, and every later timer is sent again.
 */
export async function sweepEscalations(options: { startup?: boolean; now?: number } = {}): Promise<EscalationSweep> {
  const now = options.now ?? clockNow();
  const due = await listDue(options.startup ? now : now - SWEEP_GRACE_MS, PER_SHARD);
  const result: EscalationSweep = { due: due.length, stepped: 0, flushed: 0, failed: 0, rearmed: 0 };
  if (options.startup) result.rearmed = await rearm(now);
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const entry = due[next++];
      try {
        const escalation = parseEscalationDueKey(entry.what);
        if (escalation) {
          await runStep(escalation.accountId, escalation.alertId, { kind: 'due' }, { send: sendEffects });
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

/**
 * Sends every escalation timer and storm flush due after `now` again (their messages were lost). An
 * escalation that holds an outbox had a step die with the process: the message that would have
 * brought it back (run-step.ts `retriedByQueue`) was lost too, so its step runs now.
 */
async function rearm(now: number): Promise<number> {
  const later = (await listDue(now + REARM_AHEAD_MS, PER_SHARD)).filter((entry) => entry.dueAt > now);
  await Promise.all(
    later.map(async (entry) => {
      const escalation = parseEscalationDueKey(entry.what);
      if (escalation && (await getEscalation(escalation.accountId, escalation.alertId)).outbox.length > 0) {
        return runStep(escalation.accountId, escalation.alertId, { kind: 'due' }, { send: sendEffects }).catch((error: unknown) =>
          logger.warn('sweeper: a leftover outbox found at start-up failed; its due time runs it', {
            what: entry.what,
            error: error as Error,
          }),
        );
      }
      if (escalation) return scheduleDue(escalation.accountId, escalation.alertId, entry.dueAt);
      const [kind, accountId, accountUserId, channel] = entry.what.split('#');
      if (kind === 'RATE') return scheduleFlush({ account_id: accountId, account_user_id: accountUserId, channel }, entry.dueAt);
    }),
  );
  return later.length;
}
