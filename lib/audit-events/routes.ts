// The routes of the `auditEvents` function (functions/http/audit-events.ts): the account's audit
// trail, read only. No route writes or deletes an event: other methods find no route (404).
import { declareRoutes } from '../http/route-contract';
import { AuditEventV4 } from './schemas';

const ADMINS = 'Account admins only (403 otherwise).';

export const auditEventRoutes = declareRoutes('auditEvents', {
  list: {
    method: 'GET',
    path: '/api/v4/audit_events',
    summary: 'List audit events',
    description: `${ADMINS} Newest first. Filters read an index each: actor_id, object_type, object_id, action (equals), and created_at ranges (ops=created_at:gte, lt, between…).`,
    tag: 'Audit',
    list: AuditEventV4,
    success: [{ status: 200, description: 'A page of audit events' }],
    errors: [401, 403, 'invalid'],
  },
  get: {
    method: 'GET',
    path: '/api/v4/audit_events/{id}',
    summary: 'Get an audit event',
    description: ADMINS,
    tag: 'Audit',
    success: [{ status: 200, description: 'The audit event', schema: AuditEventV4 }],
    errors: [401, 403, 404],
  },
});
