// Entry point: the sweeper (every minute deployed; a timer locally). Flow: scheduled event → re-send
// pending inbound requests that waited too long (lib/integrations/ingest/sweep-pending).
import { sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { logger } from '../../lib/log';

export const handler = async () => {
  const result = await sweepPendingLogs();
  if (result.due > 0) logger.info('sweeper: pending inbound requests re-sent', { ...result });
  return result;
};
