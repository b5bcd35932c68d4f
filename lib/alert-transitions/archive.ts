// Archive (docs/api.md#alert-transitions), the earlier interface only: from resolved or dropped to
// archived, with archived_at and archived_by. Nothing escalates any more by then.
import type { AlertRecord } from '../alerts/records';
import type { TransitionRequest } from './request';
import { applyTransition, type StatusTransition } from './transition';

export const ARCHIVE: StatusTransition = {
  action: 'archive',
  from: { earlier: ['resolved', 'dropped'] },
  to: 'archived',
  logged: 'archived',
  fields: (who, now) => ({ set: { archived_at: now, archived_by: who } }),
};

export function archiveAlert(accountId: string, alertId: string, request: TransitionRequest): Promise<AlertRecord> {
  return applyTransition(accountId, alertId, ARCHIVE, request);
}
