// Entry point: the sweeper (every minute deployed; a timer locally). Flow: scheduled event → re-send
// pending inbound requests that waited too long (lib/integrations/ingest/sweep-pending), and re-drive
// outgoing webhook deliveries whose queue message was lost (lib/outgoing-webhooks/sweep-deliveries).
import { sweepPendingLogs } from '../../lib/integrations/ingest/sweep-pending';
import { logger } from '../../lib/log';
import { sweepPendingDeliveries } from '../../lib/outgoing-webhooks/sweep-deliveries';

export const handler = async () => {
  const [result, webhooks] = await Promise.all([sweepPendingLogs(), sweepPendingDeliveries()]);
  if (result.due > 0) logger.info('sweeper: pending inbound requests re-sent', { ...result });
  if (webhooks.due > 0) logger.info('sweeper: webhook deliveries re-driven', { ...webhooks });
  return { ...result, webhooks };
};
