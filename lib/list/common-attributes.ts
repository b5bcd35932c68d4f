// The attributes every object shows, per interface (docs/api.md#interfaces, docs/api.md#ids), for the list specs.
import type { AttributeType } from './query';

export const V4_COMMON_ATTRIBUTES: Record<string, AttributeType> = {
  id: 'string',
  prefix_id: 'string',
  account_id: 'string',
  created_at: 'datetime',
  updated_at: 'datetime',
};

export const EARLIER_COMMON_ATTRIBUTES: Record<string, AttributeType> = {
  sid: 'string',
  id: 'string',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  meta: 'object',
};
