// The v4 representation of a SCIM token: never its secret (shown once, at creation).
import type * as z from 'zod';
import { prefixId } from '../ids';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { ListSpec } from '../list/query';
import type { ScimTokenRecord } from './records';
import type { ScimTokenV4 } from './token-schemas';

export function scimTokenToV4(record: ScimTokenRecord): z.input<typeof ScimTokenV4> {
  return {
    id: record.id,
    prefix_id: prefixId('scimToken', record.id),
    name: record.name,
    account_id: record.account_id,
    created_by: record.created_by,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const scimTokenListSpec: ListSpec = {
  attributes: { ...V4_COMMON_ATTRIBUTES, name: 'string', created_by: 'string' },
};
