// Input schemas of maintenance windows (api-v4.md: name, start_datetime, end_datetime, time_zone and
// at least one integration_ids entry on create; description accepted on create).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { idList, requiredText } from '../http/fields';
import { instant, prefixIdOf, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

const text = lazySchema(() => z.string().trim());

export const createMaintenanceWindowInput = lazyObject(() => ({
  name: requiredText,
  description: text.nullable().optional(),
  start_datetime: requiredText,
  end_datetime: requiredText,
  time_zone: requiredText,
  integration_ids: idList.pipe(z.array(z.string()).min(1)),
}));

export const updateMaintenanceWindowInput = lazyObject(() => ({
  name: requiredText.optional(),
  description: text.nullable().optional(),
  start_datetime: requiredText.optional(),
  end_datetime: requiredText.optional(),
  time_zone: requiredText.optional(),
  integration_ids: idList.pipe(z.array(z.string()).min(1)).optional(),
}));

// ---- representations: what represent.ts returns, and the document shows ----

export const MaintenanceWindowV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('maintenanceWindow'),
  account_id: ulid,
  name: z.string(),
  start_datetime: instant,
  end_datetime: instant,
  time_zone: z.string(),
  integration_ids: z.array(ulid),
  created_at: instant,
  updated_at: instant,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createMaintenanceWindowInput, { id: 'MaintenanceWindowCreateInput' });
documentNames.add(updateMaintenanceWindowInput, { id: 'MaintenanceWindowUpdateInput' });
documentNames.add(MaintenanceWindowV4, { id: 'MaintenanceWindowV4' });
