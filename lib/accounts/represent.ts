// The earlier interface's account (api-earlier.md "Account").
import { prefixId } from '../ids';
import type { AccountRecord } from './records';
import type * as z from 'zod';
import type { AccountEarlier } from './schemas';

export function accountToEarlier(account: AccountRecord): z.input<typeof AccountEarlier> {
  const id = prefixId('account', account.id);
  return {
    sid: id,
    id,
    createdAt: account.created_at,
    updatedAt: account.updated_at,
    meta: account.meta,
    name: account.name,
    token_id: account.token_id,
    sso: account.sso,
    notification_templates: account.notification_templates,
  };
}
