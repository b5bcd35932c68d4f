// Entry point: maintenance windows (/api/v4/maintenance_windows).
import { maintenanceWindowRoutes } from '../../lib/maintenance-windows/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { createMaintenanceWindow } from '../../lib/maintenance-windows/create-maintenance-window';
import { deleteMaintenanceWindow } from '../../lib/maintenance-windows/delete-maintenance-window';
import { findMaintenanceWindow, listMaintenanceWindows } from '../../lib/maintenance-windows/read-maintenance-windows';
import { updateMaintenanceWindow } from '../../lib/maintenance-windows/update-maintenance-window';
import { maintenanceWindowToV4 } from '../../lib/maintenance-windows/represent';

export const handler = httpHandler(maintenanceWindowRoutes, {
  list: async (req) => ok(await listMaintenanceWindows(req.principal, req.query, req.iface)),
  create: async (req) => created(maintenanceWindowToV4(await createMaintenanceWindow(req.principal, req.body()))),
  get: async (req) => ok(maintenanceWindowToV4(await findMaintenanceWindow(req.principal, req.params.id))),
  update: async (req) => ok(maintenanceWindowToV4(await updateMaintenanceWindow(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteMaintenanceWindow(req.principal, req.params.id);
    return noContent();
  },
});
