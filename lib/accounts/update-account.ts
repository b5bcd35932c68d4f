// PUT /account/:id (account admins): name, meta, sso and notification templates.
import { requireAdmin } from '../auth/permissions';
import { definedOnly } from '../http/changes';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { findAccount } from './read-account';
import type { AccountRecord } from './records';
import { updateAccountInput } from './schemas';
import { saveAccount } from './store';

export async function updateAccount(principal: Principal, rawId: string, body: unknown): Promise<AccountRecord> {
  const account = await findAccount(principal, rawId);
  requireAdmin(principal, 'update the account');
  const input = parseInput(updateAccountInput, body);
  const next: AccountRecord = {
    ...account,
    ...definedOnly(input),
    updated_at: new Date().toISOString(),
    version: account.version + 1,
  };
  if (!(await saveAccount(next))) throw new Conflict('the account was changed by another request; reload and try again');
  return next;
}
