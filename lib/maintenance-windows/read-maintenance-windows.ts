// Reading maintenance windows (everyone in the account): one by id and the account's list.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import { collectionSource } from '../list/sources';
import type { MaintenanceWindowRecord } from './records';
import { maintenanceWindowListSpec, maintenanceWindowToV4 } from './represent';
import { getMaintenanceWindow, maintenanceWindowCollection } from './store';

export async function findMaintenanceWindow(principal: Principal, rawId: string): Promise<MaintenanceWindowRecord> {
  const id = parseId('maintenanceWindow', rawId);
  const record = id ? await getMaintenanceWindow(principal.accountId, id) : null;
  if (!record) throw new NotFound('Maintenance window not found');
  return record;
}

export async function listMaintenanceWindows<Iface extends ApiInterface>(principal: Principal, params: URLSearchParams, iface: Iface) {
  const query = parseListQuery(params, maintenanceWindowListSpec, iface);
  const source = collectionSource(maintenanceWindowCollection(principal.accountId));
  return runList(query, source, maintenanceWindowToV4, { search: maintenanceWindowListSpec.search });
}
