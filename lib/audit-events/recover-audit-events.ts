// The sweeper's duty for the audit trail: events whose write did not finish (a crash between an
// object's write and its event's own item) are settled from the due index (lib/store/audit-trail.ts).
import { logger } from '../log';
import { recoverAuditEvents } from '../store/audit-trail';

export async function sweepAuditEvents(): Promise<{ due: number }> {
  const { settled, failed } = await recoverAuditEvents();
  for (const { key, error } of failed)
    logger.warn('sweeper: an audit event could not be settled; the next sweep tries again', { key, error });
  return { due: settled };
}
