// No alert may be forgotten (issue 9): an alert whose routing message was lost stays in the unrouted
// index (unrouted-store.ts) and is sent to routing again, by the sweeper once a grace period has passed,
// and at start-up of the local runtime at once (its embedded queue did not survive). A re-drive is a
// claim (the entry's due time moves on, backing off) and a routing message; the routing step is
// idempotent, so an alert that was only slow is routed once all the same. While the routing queue is
// backed up, an entry is left to its message until it has waited BACKLOG_WAIT_MS more, unless its
// send failed (marked overdue then). An entry whose alert was
// routed or deleted meanwhile is removed.
import { now as clockNow } from '../clock';
import { config } from '../config';
import { resendDueBy } from '../queues/backlog';
import { logger } from '../log';
import { sendToRouting } from './routing-queue';
import { getAlert } from './store';
import { decidedAtCreate } from './direct-routing';
import { claimUnrouted, clearUnrouted, listDueUnrouted, type UnroutedEntry } from './unrouted-store';

/** How long a new alert's own routing message has before the sweeper sends another. */
export const UNROUTED_GRACE_MS = 30_000;
/** The longest wait between two re-drives of one alert. */
const MAX_BACKOFF_MS = 15 * 60_000;
const PER_SHARD = 200;

export interface UnroutedSweep {
  due: number;
  resent: number;
  cleared: number;
  failed: number;
}

async function redrive(entries: UnroutedEntry[], now: number): Promise<UnroutedSweep> {
  const result: UnroutedSweep = { due: entries.length, resent: 0, cleared: 0, failed: 0 };
  await Promise.all(
    entries.map(async (entry) => {
      try {
        const alert = await getAlert(entry.account_id, entry.alert_id);
        // An alert decided at create is routed once its routing has run, which removes this entry.
        if (!alert || (alert.routed_at && !decidedAtCreate(alert))) {
          await clearUnrouted(entry.account_id, entry.alert_id);
          result.cleared++;
          return;
        }
        const backoff = Math.min(UNROUTED_GRACE_MS * 2 ** (entry.resends + 1), MAX_BACKOFF_MS);
        if (!(await claimUnrouted(entry, now + backoff))) return;
        await sendToRouting({ account_id: entry.account_id, alert_id: entry.alert_id });
        result.resent++;
      } catch (error) {
        result.failed++;
        logger.error('unrouted alert not re-driven', { error: error as Error, accountId: entry.account_id, alertId: entry.alert_id });
      }
    }),
  );
  if (result.resent > 0) logger.warn('alerts that were never routed sent to routing again', { ...result });
  return result;
}

/** The sweeper's pass: alerts created more than the grace period ago, still unrouted, and due; those
 * still in a backed-up routing queue are left to their message (lib/queues/backlog.ts). */
export async function sweepUnroutedAlerts(now = clockNow()): Promise<UnroutedSweep> {
  return redrive(await listDueUnrouted(now - UNROUTED_GRACE_MS, await resendDueBy(config().ROUTING_QUEUE_URL, now), PER_SHARD), now);
}

/** Start-up of the local runtime: every alert created before `startedAt` and still unrouted, at once
 * (its message died with the embedded queue), whatever its due time. One pass of up to 5000 per shard:
 * the local runtime's store, not a fleet's. */
export async function redriveUnroutedAlerts(startedAt = Date.now()): Promise<UnroutedSweep> {
  return redrive(await listDueUnrouted(startedAt, Number.MAX_SAFE_INTEGER, 5_000), Date.now());
}
