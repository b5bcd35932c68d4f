// The routes of the `maintenanceWindows` function (functions/http/maintenance-windows.ts).
import { declareRoutes } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { createMaintenanceWindowInput, MaintenanceWindowV4, updateMaintenanceWindowInput } from './schemas';

export const maintenanceWindowRoutes = declareRoutes(
  'maintenanceWindows',
  standardRoutes('/api/v4/maintenance_windows', {
    tag: 'Maintenance windows',
    noun: 'maintenance window',
    plural: 'maintenance windows',
    item: MaintenanceWindowV4,
    create: createMaintenanceWindowInput,
    update: updateMaintenanceWindowInput,
    form: true,
    writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
    descriptions: {
      create:
        'While it lasts, webhooks to the listed integrations are logged and ignored. Datetimes without an offset are read in time_zone; description is accepted but not shown.',
    },
  }),
);
