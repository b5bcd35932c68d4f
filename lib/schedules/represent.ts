// The v4 representation of a schedule.
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { ScheduleRecord } from './records';
import type * as z from 'zod';
import type { ScheduleV4 } from './schemas';

export function scheduleToV4(record: ScheduleRecord): z.input<typeof ScheduleV4> {
  return {
    id: record.id,
    prefix_id: prefixId('schedule', record.id),
    account_id: record.account_id,
    tiny_id: record.tiny_id,
    name: record.name,
    meta: record.meta,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const scheduleListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    tiny_id: 'number',
    name: 'string',
    meta: 'object',
  },
  search: ['name'],
};
