// The sweeper's duty for the audit trail: events whose write did not finish (a crash between an
// object's write and its event's own item) are settled from the due index (lib/store/audit-trail.ts).
import { recoverAuditEvents } from '../store/audit-trail';

export async function sweepAuditEvents(): Promise<{ due: number }> {
  return { due: await recoverAuditEvents() };
}
