// Maintenance window use cases (/api/v4/maintenance_windows): admins create, update and delete
// (contract §3); everyone in the account reads. Datetimes without an offset are read in the window's
// time zone; the end must come after the start; every integration must exist in the account.
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { Conflict, Invalid, NotFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { newId, parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import { resolveTimeZone } from '../oncall/time-zones';
import { ENTITY_TYPES } from '../store/items';
import { partitionSource } from '../store/partition-source';
import { resolveReferences } from '../store/references';
import { forgetAccountWindows } from './active-windows';
import { parseDateTimeInZone } from './datetimes';
import type { MaintenanceWindowRecord } from './records';
import { maintenanceWindowListSpec, maintenanceWindowToV4 } from './represent';
import { createMaintenanceWindowInput, updateMaintenanceWindowInput } from './schemas';
import {
  createMaintenanceWindowRecord,
  deleteMaintenanceWindowRecord,
  getMaintenanceWindow,
  saveMaintenanceWindow,
} from './store';

interface Span {
  start: number;
  end: number;
  zone: string;
}

/** Reads start/end in the zone; a value not given keeps the stored instant. */
function span(
  input: { start_datetime?: string; end_datetime?: string; time_zone?: string },
  current?: MaintenanceWindowRecord,
): Span {
  const messages: string[] = [];
  const zoneName = input.time_zone ?? current?.time_zone ?? 'UTC';
  const zone = resolveTimeZone(zoneName);
  if (!zone) throw new Invalid(`time_zone is not a known time zone: ${zoneName}`);
  const read = (field: 'start_datetime' | 'end_datetime'): number => {
    const raw = input[field];
    if (raw === undefined) return Date.parse(current![field]);
    const ms = parseDateTimeInZone(raw, zone);
    if (ms === null) messages.push(`${field} must be an ISO 8601 datetime`);
    return ms ?? Number.NaN;
  };
  const start = read('start_datetime');
  const end = read('end_datetime');
  if (messages.length > 0) throw new Invalid(messages);
  if (end <= start) throw new Invalid('end_datetime must be after start_datetime');
  return { start, end, zone };
}

async function integrationIds(accountId: string, ids: string[]): Promise<string[]> {
  const [resolved] = await resolveReferences(accountId, [
    { field: 'integration_ids', kind: 'integration', type: ENTITY_TYPES.integration, ids },
  ]);
  return resolved;
}

export async function createMaintenanceWindow(principal: Principal, body: unknown): Promise<MaintenanceWindowRecord> {
  requireAdmin(principal, 'create maintenance windows');
  const input = parseInput(createMaintenanceWindowInput, body);
  const { start, end } = span(input);
  const now = new Date().toISOString();
  const record: MaintenanceWindowRecord = {
    id: newId(),
    account_id: principal.accountId,
    version: 1,
    name: input.name,
    description: input.description ?? null,
    start_datetime: new Date(start).toISOString(),
    end_datetime: new Date(end).toISOString(),
    time_zone: input.time_zone,
    integration_ids: await integrationIds(principal.accountId, input.integration_ids),
    created_at: now,
    updated_at: now,
  };
  await createMaintenanceWindowRecord(record);
  forgetAccountWindows(principal.accountId);
  return record;
}

export async function findMaintenanceWindow(principal: Principal, rawId: string): Promise<MaintenanceWindowRecord> {
  const id = parseId('maintenanceWindow', rawId);
  const record = id ? await getMaintenanceWindow(principal.accountId, id) : null;
  if (!record) throw new NotFound('Maintenance window not found');
  return record;
}

export async function updateMaintenanceWindow(principal: Principal, rawId: string, body: unknown): Promise<MaintenanceWindowRecord> {
  const current = await findMaintenanceWindow(principal, rawId);
  requireAdmin(principal, 'update maintenance windows');
  const input = parseInput(updateMaintenanceWindowInput, body);
  const { start, end } = span(input, current);
  const next: MaintenanceWindowRecord = {
    ...current,
    name: input.name ?? current.name,
    description: input.description === undefined ? current.description : input.description,
    start_datetime: new Date(start).toISOString(),
    end_datetime: new Date(end).toISOString(),
    time_zone: input.time_zone ?? current.time_zone,
    integration_ids: input.integration_ids
      ? await integrationIds(principal.accountId, input.integration_ids)
      : current.integration_ids,
    updated_at: new Date().toISOString(),
    version: current.version + 1,
  };
  if (!(await saveMaintenanceWindow(next))) {
    throw new Conflict('the maintenance window was changed by another request; reload and try again');
  }
  forgetAccountWindows(principal.accountId);
  return next;
}

export async function deleteMaintenanceWindow(principal: Principal, rawId: string): Promise<void> {
  const current = await findMaintenanceWindow(principal, rawId);
  requireAdmin(principal, 'delete maintenance windows');
  if (!(await deleteMaintenanceWindowRecord(principal.accountId, current.id))) throw new NotFound('Maintenance window not found');
  forgetAccountWindows(principal.accountId);
}

export async function listMaintenanceWindows(principal: Principal, params: URLSearchParams, iface: ApiInterface) {
  const query = parseListQuery(params, maintenanceWindowListSpec, iface);
  const source = partitionSource<MaintenanceWindowRecord>(principal.accountId, ENTITY_TYPES.maintenanceWindow);
  return runList(query, source, maintenanceWindowToV4, { search: maintenanceWindowListSpec.search });
}
