// The sweeper's part for outgoing webhooks: a pending delivery whose due time passed a while ago lost
// its queue message (a crash, a failed send): it is asked for again. Asking twice is harmless, a try is
// claimed by one worker only (delivery-store.ts).
import { clock, scaled } from '../clock';
import { config } from '../config';
import { logger } from '../log';
import { listDueDeliveries } from './delivery-store';
import { sendDeliveryMessage } from './webhook-queue';

/** How long past its due time a delivery waits before the sweeper re-drives it. */
export const SWEEP_GRACE_MS = 2 * 60_000;
const PER_SHARD = 200;

/** `all`: every pending delivery, due or not (the local runtime's start-up: its queue lost them all;
 * a try that is not due yet sends itself on as a delayed message). */
export async function sweepPendingDeliveries(options: { all?: boolean } = {}): Promise<{ due: number; resent: number }> {
  const grace = Math.max(1_000, scaled(SWEEP_GRACE_MS, config().TIME_SCALE));
  const upTo = options.all ? Date.UTC(9999, 0) : clock.now() - grace;
  const due = await listDueDeliveries(upTo, PER_SHARD);
  let resent = 0;
  await Promise.all(
    due.map(async (d) => {
      try {
        await sendDeliveryMessage(d.account_id, d.id, 0);
        resent += 1;
      } catch (error) {
        logger.warn('sweeper: webhook re-drive failed', { deliveryId: d.id, error: error as Error });
      }
    }),
  );
  return { due: due.length, resent };
}
