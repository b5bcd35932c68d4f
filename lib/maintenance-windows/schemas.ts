// Input schemas of maintenance windows (api-v4.md: name, start_datetime, end_datetime, time_zone and
// at least one integration_ids entry on create; description accepted on create).
import * as z from 'zod';
import { idList, requiredText } from '../http/fields';

const text = z.string().trim();

export const createMaintenanceWindowInput = z.object({
  name: requiredText,
  description: text.nullable().optional(),
  start_datetime: requiredText,
  end_datetime: requiredText,
  time_zone: requiredText,
  integration_ids: idList.pipe(z.array(z.string()).min(1)),
});

export const updateMaintenanceWindowInput = z.object({
  name: requiredText.optional(),
  description: text.nullable().optional(),
  start_datetime: requiredText.optional(),
  end_datetime: requiredText.optional(),
  time_zone: requiredText.optional(),
  integration_ids: idList.pipe(z.array(z.string()).min(1)).optional(),
});
