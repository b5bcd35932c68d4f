// The v4 representation of an audit event, and what its list filters on.
import type * as z from 'zod';
import type { ListSpec } from '../list/query';
import type { AuditEventV4 } from './schemas';
import type { AuditEventRecord } from './store';

export function auditEventToV4(record: AuditEventRecord): z.input<typeof AuditEventV4> {
  return {
    id: record.id,
    actor_type: record.actor_type,
    actor_id: record.actor_id,
    action: record.action,
    object_type: record.object_type,
    object_id: record.object_id,
    changes: record.changes,
    ip: record.ip,
    user_agent: record.user_agent,
    created_at: record.created_at,
  };
}

export const auditEventListSpec: ListSpec = {
  attributes: {
    id: 'string',
    actor_type: 'string',
    actor_id: 'string',
    action: 'string',
    object_type: 'string',
    object_id: 'string',
    changes: 'object',
    ip: 'string',
    user_agent: 'string',
    created_at: 'datetime',
  },
  search: ['object_type', 'action', 'user_agent'],
};
