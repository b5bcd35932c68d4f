// Entry point: the sweeper (every minute deployed; a timer locally, and once at start-up of the local
// runtime). Flow: scheduled event → re-send pending inbound requests that waited too long
// (lib/integrations/ingest/sweep-pending) → repair one counter item (lib/counters). `{ redrive: 'all' }` (local start-up) re-sends every
// pending request at once, since the embedded queue lost their messages. Each duty
// runs even if another fails.
import { repairNextCounter } from '../../lib/counters/recount-counters';
import { redrivePendingLogs, sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { logger } from '../../lib/log';

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
  const [inbound, counters] = await Promise.all([
    duty('inbound requests', () => (startup ? redrivePendingLogs(event?.startedAt) : sweepPendingLogs())),
    startup ? null : duty('counters', () => repairNextCounter()),
  ]);
  if ('due' in inbound && inbound.due > 0)
    logger.info(startup ? 'start-up: pending inbound requests re-driven' : 'sweeper: pending inbound requests re-sent', { ...inbound });
  return { inbound, counters };
};
