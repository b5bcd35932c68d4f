// The sweeper's use case: no accepted request is lost (contract §9). A log still pending after the
// grace period was never queued (the send failed after the log was stored) or its worker died; it is
// claimed (its due time moves on, backing off) and its id sent to the ingest queue again. Reprocessing
// a log that was only slow is harmless: the worker is idempotent.
import { logger } from '../../log';
import { claimForResend, duePendingLogs } from './incoming-log';
import { sendToIngestQueue } from './ingest-queue';

const PER_SHARD = 500;

export interface SweepResult {
  due: number;
  resent: number;
  failed: number;
}

export async function sweepPendingLogs(now = Date.now()): Promise<SweepResult> {
  const due = await duePendingLogs(now, PER_SHARD);
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
