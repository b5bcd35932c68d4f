// Entry point: the sweeper (every minute deployed; a timer locally, and once at start-up of the local
// runtime). Flow: scheduled event → re-send pending inbound requests that waited too long
// (lib/integrations/ingest/sweep-pending), and re-drive outgoing webhook deliveries whose queue message
// was lost (lib/outgoing-webhooks/sweep-deliveries); `{ redrive: 'all' }` (local start-up) re-sends
// every pending one of both at once, since the embedded queue lost their messages.
import { redrivePendingLogs, sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { logger } from '../../lib/log';
import { sweepPendingDeliveries } from '../../lib/outgoing-webhooks/sweep-deliveries';

export const handler = async (event?: { redrive?: string; startedAt?: number }) => {
  const startup = event?.redrive === 'all';
  const [result, webhooks] = await Promise.all([
    startup ? redrivePendingLogs(event?.startedAt) : sweepPendingLogs(),
    sweepPendingDeliveries({ all: startup }),
  ]);
  if (result.due > 0)
    logger.info(startup ? 'start-up: pending inbound requests re-driven' : 'sweeper: pending inbound requests re-sent', { ...result });
  if (webhooks.due > 0) logger.info('sweeper: webhook deliveries re-driven', { ...webhooks });
  return { ...result, webhooks };
};
