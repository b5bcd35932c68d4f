// Entry point: the sweeper (every minute deployed; a timer locally, and once at start-up of the local
// runtime). Flow: scheduled event → re-send pending inbound requests that waited too long
// (lib/integrations/ingest/sweep-pending); `{ redrive: 'all' }` (local start-up) re-sends every
// pending one at once, since the embedded queue lost their messages.
import { redrivePendingLogs, sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { logger } from '../../lib/log';

export const handler = async (event?: { redrive?: string; startedAt?: number }) => {
  const startup = event?.redrive === 'all';
  const result = startup ? await redrivePendingLogs(event?.startedAt) : await sweepPendingLogs();
  if (result.due > 0)
    logger.info(startup ? 'start-up: pending inbound requests re-driven' : 'sweeper: pending inbound requests re-sent', { ...result });
  return result;
};
