// The sweeper's broadcast duty: a broadcast timer (delivery, a stalled delivery's lease, the response
// deadline) whose queue message was lost still runs. Broadcasts with a timer are in the due index
// (`BRD#<acc>#<id>`); whatever is due longer than a moment ago runs here, exactly as its message would
// have run it (the step is idempotent). At start-up of the local runtime, whose embedded queue lost its
// messages, what is due runs at once and later timers are sent again.
import { now as clockNow } from '../clock';
import { logger } from '../log';
import { listDue } from '../store/due-index';
import { loadOnce } from '../load-once';
import { parseBroadcastDueKey } from './store';
import { scheduleBroadcast } from './timers';

/** A broadcast's step (its delivery: people's notification rules and their parser) loads with the
 * first broadcast due, not with every sweep (test/infra/bundles.test.ts). */
const loadRunBroadcast = /* @__PURE__ */ loadOnce(() => import('./run-broadcast'));

export const BROADCAST_SWEEP_GRACE_MS = 2_000;
const PER_SHARD = 200;
const REARM_AHEAD_MS = 86_400_000;

export interface BroadcastSweep {
  due: number;
  run: number;
  failed: number;
  rearmed: number;
}

export async function sweepBroadcasts(options: { startup?: boolean; now?: number } = {}): Promise<BroadcastSweep> {
  const now = options.now ?? clockNow();
  const entries = (await listDue(options.startup ? now : now - BROADCAST_SWEEP_GRACE_MS, PER_SHARD)).flatMap((entry) => {
    const broadcast = parseBroadcastDueKey(entry.what);
    return broadcast ? [broadcast] : [];
  });
  const result: BroadcastSweep = { due: entries.length, run: 0, failed: 0, rearmed: 0 };
  for (const { accountId, broadcastId } of entries) {
    try {
      const { runBroadcastStep } = await loadRunBroadcast();
      await runBroadcastStep(accountId, broadcastId);
      result.run += 1;
    } catch (error) {
      result.failed += 1;
      logger.warn('sweeper: broadcast step failed; the next sweep tries again', { broadcastId, error: error as Error });
    }
  }
  if (options.startup) {
    const later = (await listDue(now + REARM_AHEAD_MS, PER_SHARD)).filter((entry) => entry.dueAt > now);
    for (const entry of later) {
      const broadcast = parseBroadcastDueKey(entry.what);
      if (!broadcast) continue;
      await scheduleBroadcast(broadcast.accountId, broadcast.broadcastId, entry.dueAt);
      result.rearmed += 1;
    }
  }
  return result;
}
