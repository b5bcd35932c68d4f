// Entry point: the audit trail (/api/v4/audit_events), read only.
import { httpHandler } from '../../lib/api/handler';
import { findAuditEvent, listAuditEvents } from '../../lib/audit-events/read-audit-events';
import { auditEventToV4 } from '../../lib/audit-events/represent';
import { auditEventRoutes } from '../../lib/audit-events/routes';
import { ok } from '../../lib/http/replies';

export const handler = httpHandler(auditEventRoutes, {
  list: async (req) => ok(await listAuditEvents(req.principal, req.query)),
  get: async (req) => ok(auditEventToV4(await findAuditEvent(req.principal, req.params.id))),
});
