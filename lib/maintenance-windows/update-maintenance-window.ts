// PUT /api/v4/maintenance_windows/:id (account admins): only the fields sent change.
import { requireAdmin } from '../auth/permissions';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { forgetAccountWindows } from './active-windows';
import { integrationIds } from './create-maintenance-window';
import { windowSpan } from './datetimes';
import { findMaintenanceWindow } from './read-maintenance-windows';
import type { MaintenanceWindowRecord } from './records';
import { updateMaintenanceWindowInput } from './schemas';
import { saveMaintenanceWindow } from './store';

export async function updateMaintenanceWindow(principal: Principal, rawId: string, body: unknown): Promise<MaintenanceWindowRecord> {
  const current = await findMaintenanceWindow(principal, rawId);
  requireAdmin(principal, 'update maintenance windows');
  const input = parseInput(updateMaintenanceWindowInput, body);
  const { start, end } = windowSpan(input, current);
  const next: MaintenanceWindowRecord = {
    ...current,
    name: input.name ?? current.name,
    description: input.description === undefined ? current.description : input.description,
    start_datetime: new Date(start).toISOString(),
    end_datetime: new Date(end).toISOString(),
    time_zone: input.time_zone ?? current.time_zone,
    integration_ids: input.integration_ids ? await integrationIds(principal.accountId, input.integration_ids) : current.integration_ids,
    updated_at: new Date().toISOString(),
    version: current.version + 1,
  };
  if (!(await saveMaintenanceWindow(next))) {
    throw new Conflict('the maintenance window was changed by another request; reload and try again');
  }
  forgetAccountWindows(principal.accountId);
  return next;
}
