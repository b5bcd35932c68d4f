// GET /account/:id: the caller's own account only; another id is absent (docs/api.md#account).
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import type { AccountRecord } from './records';
import { getAccount } from './store';

export async function findAccount(principal: Principal, rawId: string): Promise<AccountRecord> {
  const id = parseId('account', rawId);
  const account = id === principal.accountId ? await getAccount(id) : null;
  if (!account) throw new NotFound('Account not found');
  return account;
}
