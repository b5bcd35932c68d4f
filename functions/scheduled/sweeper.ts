// Entry point: the sweeper (every minute deployed; a timer locally, and once at start-up of the local
// runtime). Flow: scheduled event → re-send pending inbound requests that waited too long
// (lib/integrations/ingest/sweep-pending), re-drive outgoing webhook deliveries whose queue message
// was lost (lib/outgoing-webhooks/sweep-deliveries), run the escalation steps and storm flushes whose
// timers are late (lib/escalation/sweep), and tell teams' recipients who went on call
// (lib/escalation/going-oncall); `{ redrive: 'all' }` (local start-up) re-sends every pending one at
// once and re-arms every escalation timer, since the embedded queue lost their messages.
import { sweepOncallChanges } from '../../lib/escalation/going-oncall';
import { sweepEscalations } from '../../lib/escalation/sweep';
import { redrivePendingLogs, sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { logger } from '../../lib/log';
import { sweepPendingDeliveries } from '../../lib/outgoing-webhooks/sweep-deliveries';

/** Escalation's duties never fail the others: each is logged and tried again next minute. */
async function duty<T>(name: string, run: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await run();
  } catch (error) {
    logger.error(`sweeper: ${name} failed`, { error: error as Error });
    return { error: (error as Error).message };
  }
}

export const handler = async (event?: { redrive?: string; startedAt?: number }) => {
  const startup = event?.redrive === 'all';
  const [result, webhooks, escalations, oncall] = await Promise.all([
    startup ? redrivePendingLogs(event?.startedAt) : sweepPendingLogs(),
    sweepPendingDeliveries({ all: startup }),
    duty('escalation timers', () => sweepEscalations({ startup })),
    duty('on-call changes', () => sweepOncallChanges()),
  ]);
  if (result.due > 0)
    logger.info(startup ? 'start-up: pending inbound requests re-driven' : 'sweeper: pending inbound requests re-sent', { ...result });
  if (webhooks.due > 0) logger.info('sweeper: webhook deliveries re-driven', { ...webhooks });
  if ('due' in escalations && escalations.due > 0) logger.info('sweeper: late escalation timers run', { ...escalations });
  if ('changed' in oncall && oncall.changed > 0) logger.info('sweeper: on-call changes told', { ...oncall });
  return { ...result, webhooks, escalations, oncall };
};
