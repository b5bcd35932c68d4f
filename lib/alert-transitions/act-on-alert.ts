// POST /api/v4/alerts/:id/{acknowledge,resolve,reject} and POST /alert/:id/{acknowledge,reject,resolve,
// archive}: the caller's transition of the alert a path names (its id, prefix id or tiny id), under
// the rules of the interface that asked. Each verb is its own file here.
import { actorOf } from '../alerts/actor';
import type { AlertRecord } from '../alerts/records';
import { resolveAlertId } from '../alerts/read-alerts';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import type { ApiInterface } from '../http/request';
import { acknowledgeAlert } from './acknowledge';
import { archiveAlert } from './archive';
import { rejectAlert } from './reject';
import type { TransitionRequest } from './request';
import { resolveAlert } from './resolve';
import type { AlertAction } from './transition';

export async function actOnAlert(
  principal: Principal,
  rawId: string,
  action: AlertAction,
  iface: ApiInterface,
  options: Pick<TransitionRequest, 'idempotencyKey'> = {},
): Promise<AlertRecord> {
  const id = await resolveAlertId(principal.accountId, rawId);
  if (!id) throw new NotFound('Alert not found');
  const request: TransitionRequest = { actor: actorOf(principal), rules: iface === 'v4' ? 'v4' : 'earlier', ...options };
  switch (action) {
    case 'acknowledge':
      return acknowledgeAlert(principal.accountId, id, request);
    case 'resolve':
      return resolveAlert(principal.accountId, id, request);
    case 'reject':
      return rejectAlert(principal.accountId, id, request);
    case 'archive':
      return archiveAlert(principal.accountId, id, request);
  }
}
