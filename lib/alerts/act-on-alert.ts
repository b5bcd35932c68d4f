// POST /api/v4/alerts/:id/{acknowledge,resolve,reject} and POST /alert/:id/{acknowledge,reject,
// resolve,archive}: the caller's transition under the rules of the interface used (contract §6).
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import type { ApiInterface } from '../http/request';
import { actorOf } from './actor';
import { resolveAlertId } from './read-alerts';
import type { AlertRecord } from './records';
import { transitionAlert, type AlertAction } from './transitions';

export async function actOnAlert(principal: Principal, rawId: string, action: AlertAction, iface: ApiInterface): Promise<AlertRecord> {
  const id = await resolveAlertId(principal.accountId, rawId);
  if (!id) throw new NotFound('Alert not found');
  return transitionAlert(principal.accountId, id, action, actorOf(principal), iface === 'v4' ? 'v4' : 'earlier');
}
