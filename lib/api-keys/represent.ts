// The v4 representation of an API key: never its token (shown once, at creation).
import { prefixId } from '../ids';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { ListSpec } from '../list/query';
import type { ApiKeyRecord } from './records';
import type * as z from 'zod';
import type { ApiKeyV4 } from './schemas';

export function apiKeyToV4(record: ApiKeyRecord): z.input<typeof ApiKeyV4> {
  return {
    id: record.id,
    prefix_id: prefixId('apiKey', record.id),
    name: record.name,
    account_id: record.account_id,
    account_user_id: record.account_user_id,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const apiKeyListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    name: 'string',
    account_user_id: 'string',
  },
};
