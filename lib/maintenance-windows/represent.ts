// The v4 representation of a maintenance window (api-v4.md): description is accepted, not shown.
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { MaintenanceWindowRecord } from './records';
import type * as z from 'zod';
import type { MaintenanceWindowV4 } from './schemas';

export function maintenanceWindowToV4(record: MaintenanceWindowRecord): z.input<typeof MaintenanceWindowV4> {
  return {
    id: record.id,
    prefix_id: prefixId('maintenanceWindow', record.id),
    account_id: record.account_id,
    name: record.name,
    start_datetime: record.start_datetime,
    end_datetime: record.end_datetime,
    time_zone: record.time_zone,
    integration_ids: [...record.integration_ids],
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const maintenanceWindowListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    name: 'string',
    start_datetime: 'datetime',
    end_datetime: 'datetime',
    time_zone: 'string',
    integration_ids: 'array',
  },
  search: ['name'],
};
