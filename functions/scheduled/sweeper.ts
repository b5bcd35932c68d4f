// Entry point: the sweeper (every minute deployed; a timer locally). Flow: scheduled event → re-send
// pending inbound requests that waited too long (lib/integrations/ingest/sweep-pending) → run the
// escalation steps and storm flushes whose timers are late (lib/escalation/sweep) → tell teams'
// recipients who went on call (lib/escalation/going-oncall). Each duty runs even if another fails.
import { sweepOncallChanges } from '../../lib/escalation/going-oncall';
import { sweepEscalations } from '../../lib/escalation/sweep';
import { sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { logger } from '../../lib/log';

async function duty<T>(name: string, run: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await run();
  } catch (error) {
    logger.error(`sweeper: ${name} failed`, { error: error as Error });
    return { error: (error as Error).message };
  }
}

export const handler = async () => {
  const [inbound, escalations, oncall] = await Promise.all([
    duty('inbound requests', sweepPendingLogs),
    duty('escalation timers', () => sweepEscalations()),
    duty('on-call changes', () => sweepOncallChanges()),
  ]);
  if ('due' in inbound && inbound.due > 0) logger.info('sweeper: pending inbound requests re-sent', { ...inbound });
  if ('due' in escalations && escalations.due > 0) logger.info('sweeper: late escalation timers run', { ...escalations });
  if ('changed' in oncall && oncall.changed > 0) logger.info('sweeper: on-call changes told', { ...oncall });
  return { inbound, escalations, oncall };
};
