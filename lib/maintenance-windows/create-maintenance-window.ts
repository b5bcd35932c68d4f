// POST /api/v4/maintenance_windows (account admins, docs/api.md#roles): datetimes without an offset are
// read in the window's time zone; the end must come after the start; every integration must exist.
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseInput } from '../http/validate';
import { forgetAccountWindows } from './active-windows';
import { windowSpan } from './datetimes';
import type { MaintenanceWindowRecord } from './records';
import { createMaintenanceWindowInput } from './schemas';
import { insertMaintenanceWindow } from './store';
import { newEntity } from '../store/entity-store';

/** The integrations a window lists, each an integration of the account. */
export async function integrationIds(accountId: string, ids: string[]): Promise<string[]> {
  const [resolved] = await resolveReferences(accountId, [{ field: 'integration_ids', kind: 'integration', ids }]);
  return resolved;
}

export async function createMaintenanceWindow(principal: Principal, body: unknown): Promise<MaintenanceWindowRecord> {
  requireAdmin(principal, 'create maintenance windows');
  const input = parseInput(createMaintenanceWindowInput, body);
  const { start, end } = windowSpan(input);
  const record: MaintenanceWindowRecord = {
    ...newEntity(principal.accountId),
    name: input.name,
    description: input.description ?? null,
    start_datetime: new Date(start).toISOString(),
    end_datetime: new Date(end).toISOString(),
    time_zone: input.time_zone,
    integration_ids: await integrationIds(principal.accountId, input.integration_ids),
  };
  await insertMaintenanceWindow(record);
  forgetAccountWindows(principal.accountId);
  return record;
}
