// The audit event's representation (docs/api.md#audit-trail).
import * as z from 'zod';
import { lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';
import { instant, ulid } from '../http/response-fields';

export const AuditEventV4 = lazyStrictObject(() => ({
  id: ulid,
  actor_type: z.enum(['account_user', 'api_key', 'scim_token', 'system']),
  actor_id: ulid.nullable(),
  action: z.enum(['create', 'update', 'delete', 'sign_in', 'sign_in_failed']),
  object_type: z.string(),
  object_id: ulid.nullable(),
  /** Each changed field: [before, after]; secrets as "[redacted]". */
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: instant,
}));

documentNames.add(AuditEventV4, { id: 'AuditEventV4' });
