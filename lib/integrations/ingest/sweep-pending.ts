// The sweeper's use case: no accepted request is lost (docs/api.md#integrations). A log still pending after the
// grace period was never queued (the send failed after the log was stored) or its worker died; it is
// claimed (its due time moves on, backing off) and its id sent to the ingest queue again. Reprocessing
// a log that was only slow is harmless: the worker is idempotent. While the ingest queue is backed
// up, a due log may only be waiting in line: it is left to its message until it has waited
// BACKLOG_WAIT_MS more (lib/queues/backlog.ts); a log whose send failed is marked overdue by that much.
// At start-up of the local runtime every pending log is re-driven at once, whatever its due time:
// the embedded queue does not survive a restart, so their messages are gone.
import { now as clockNow } from '../../clock';
import { config } from '../../config';
import { resendDueBy } from '../../queues/backlog';
import { logger } from '../../log';
import { claimForResend, duePendingLogs, SWEEP_GRACE_MS, type DueLog } from './incoming-log';
import { sendToIngestQueue } from './ingest-queue';

const PER_SHARD = 500;
/** Start-up re-drive: pages of up to 8 × PER_SHARD logs, at most this many. */
const MAX_REDRIVE_ROUNDS = 100;

export interface SweepResult {
  due: number;
  resent: number;
  failed: number;
}

async function resend(due: DueLog[], now: number): Promise<SweepResult> {
  let resent = 0;
  let failed = 0;
  await Promise.all(
    due.map(async (entry) => {
      try {
        if (!(await claimForResend(entry, now))) return;
        await sendToIngestQueue({ account_id: entry.log.account_id, log_id: entry.log.id });
        resent += 1;
      } catch (error) {
        // Still pending: the next sweep finds it again once its new due time passes.
        failed += 1;
        logger.warn('sweeper: re-send failed', { logId: entry.log.id, error: error as Error });
      }
    }),
  );
  return { due: due.length, resent, failed };
}

/** The sweeper's pass: pending logs due, those still in a backed-up ingest queue left to it (lib/queues/backlog.ts). */
export async function sweepPendingLogs(now = clockNow()): Promise<SweepResult> {
  return resend(await duePendingLogs(await resendDueBy(config().INGEST_QUEUE_URL, now), PER_SHARD), now);
}

/**
 * Re-drives every log that was pending when this process started (received before `startedAt`),
 * whatever its due time (a log re-sent before the crash may be due minutes later), page by page.
 * Logs received after the start are left to their own queue messages.
 */
export async function redrivePendingLogs(startedAt = Date.now()): Promise<SweepResult> {
  // Past the latest due time a pending log can have: received before the start, backed off at most 32 graces.
  const cutoff = startedAt + SWEEP_GRACE_MS * 33;
  const seen = new Set<string>();
  const total: SweepResult = { due: 0, resent: 0, failed: 0 };
  for (let round = 0; round < MAX_REDRIVE_ROUNDS; round++) {
    // A claimed log moves to a later due time, so the next page starts with the ones not seen yet.
    const fresh = (await duePendingLogs(cutoff, PER_SHARD)).filter((entry) => !seen.has(entry.log.id));
    if (fresh.length === 0) break;
    for (const entry of fresh) seen.add(entry.log.id);
    const stranded = fresh.filter((entry) => Date.parse(entry.log.created_at) < startedAt);
    const result = await resend(stranded, Date.now());
    total.due += result.due;
    total.resent += result.resent;
    total.failed += result.failed;
  }
  return total;
}
