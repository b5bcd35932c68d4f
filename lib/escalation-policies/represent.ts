// The v4 representation of an escalation policy (docs/api.md#escalation-policies).
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { EscalationPolicyRecord } from './records';
import type * as z from 'zod';
import type { EscalationPolicyV4 } from './schemas';

export function escalationPolicyToV4(record: EscalationPolicyRecord): z.input<typeof EscalationPolicyV4> {
  return {
    id: record.id,
    prefix_id: prefixId('escalationPolicy', record.id),
    account_id: record.account_id,
    name: record.name,
    repeat: record.repeat,
    reassign_team_ids: record.reassign_team_ids,
    reassign_account_user_ids: record.reassign_account_user_ids,
    escalation_layers: record.escalation_layers.map((l) => ({
      id: l.id,
      layer: l.layer,
      timeout: l.timeout,
      timeout_unit: l.timeout_unit,
    })),
    meta: record.meta,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const escalationPolicyListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    name: 'string',
    repeat: 'number',
    reassign_team_ids: 'array',
    reassign_account_user_ids: 'array',
    escalation_layers: 'object',
    meta: 'object',
  },
  search: ['name'],
};
