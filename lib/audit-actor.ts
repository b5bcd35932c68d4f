// Who a change is made by, for the audit trail (docs/api.md#audit-trail): the HTTP handler runs each
// request's use case inside `actingAs`, so the store's writes (lib/store/audit-trail.ts) name the
// caller without every use case passing it down. A write outside any request (the sweeper, the
// queue workers, a webhook's alert) is the system's.
import { ContextSlot } from './async-context';

export type ActorType = 'account_user' | 'api_key' | 'scim_token' | 'system';

export interface AuditActor {
  type: ActorType;
  /** The account user's, API key's or SCIM token's id; null for the system. */
  id: string | null;
  /** The request's source address and user agent; null outside a request. */
  ip: string | null;
  userAgent: string | null;
}

const SYSTEM: AuditActor = { type: 'system', id: null, ip: null, userAgent: null };

const current = new ContextSlot<AuditActor>('audit actor');

export function actingAs<T>(actor: AuditActor, run: () => T): T {
  return current.run(actor, run);
}

export function currentActor(): AuditActor {
  return current.getStore() ?? SYSTEM;
}
