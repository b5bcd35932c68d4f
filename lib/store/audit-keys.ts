// The audit trail's keys (lib/store/audit-trail.ts has the layout), apart from its writes so that a
// reader (the list, the recount's registration) loads no more than the keys.
import { typeOf } from '../entities';

export const AUDIT_TYPE = typeOf('auditEvent');

export const auditPartition = (accountId: string) => `A#${accountId}#${AUDIT_TYPE}`;
export const pendingPartition = (accountId: string) => `A#${accountId}#AUDPEND`;
export const byObject = (accountId: string, objectId: string) => `A#${accountId}#AUDIT#O#${objectId}`;
export const byActor = (accountId: string, actorId: string | null) => `A#${accountId}#AUDIT#A#${actorId ?? 'system'}`;
export const byObjectType = (accountId: string, objectType: string) => `A#${accountId}#AUDIT#T#${objectType}`;
export const byAction = (accountId: string, action: string) => `A#${accountId}#AUDIT#X#${action}`;
