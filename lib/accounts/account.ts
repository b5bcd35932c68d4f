// GET/PUT /account/:id: the caller's own account only; another id is absent (contract §11).
import * as z from 'zod';
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { Conflict, NotFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId, prefixId } from '../ids';
import { getAccount, saveAccount, type AccountRecord } from './store';

export async function findAccount(principal: Principal, rawId: string): Promise<AccountRecord> {
  const id = parseId('account', rawId);
  const account = id === principal.accountId ? await getAccount(id) : null;
  if (!account) throw new NotFound('Account not found');
  return account;
}

const jsonObject = z.record(z.string(), z.unknown());

const updateInput = z.object({
  name: z.string().trim().min(1).optional(),
  meta: jsonObject.optional(),
  sso: jsonObject.optional(),
  notification_templates: jsonObject.optional(),
});

export async function updateAccount(principal: Principal, rawId: string, body: unknown): Promise<AccountRecord> {
  const account = await findAccount(principal, rawId);
  requireAdmin(principal, 'update the account');
  const input = parseInput(updateInput, body);
  const next: AccountRecord = {
    ...account,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.meta !== undefined ? { meta: input.meta } : {}),
    ...(input.sso !== undefined ? { sso: input.sso } : {}),
    ...(input.notification_templates !== undefined ? { notification_templates: input.notification_templates } : {}),
    updated_at: new Date().toISOString(),
    version: account.version + 1,
  };
  if (!(await saveAccount(next))) throw new Conflict('the account was changed by another request; reload and try again');
  return next;
}

/** The earlier interface's account (api-earlier.md "Account"). */
export function accountToEarlier(account: AccountRecord) {
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
