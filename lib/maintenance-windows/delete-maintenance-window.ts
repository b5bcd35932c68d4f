// DELETE /api/v4/maintenance_windows/:id (account admins).
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { forgetAccountWindows } from './active-windows';
import { findMaintenanceWindow } from './read-maintenance-windows';
import { removeMaintenanceWindow } from './store';

export async function deleteMaintenanceWindow(principal: Principal, rawId: string): Promise<void> {
  const current = await findMaintenanceWindow(principal, rawId);
  requireAdmin(principal, 'delete maintenance windows');
  if (!(await removeMaintenanceWindow(principal.accountId, current.id))) throw new NotFound('Maintenance window not found');
  forgetAccountWindows(principal.accountId);
}
