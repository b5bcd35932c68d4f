// DELETE /api/v4/api_keys/:id: revokes a key, the caller's own or (admins) any key of the account.
// A revoked key stops working at once in this process (lib/auth/principal-cache.ts).
import { forgetApiKey } from '../auth/principal-cache';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { getApiKey, listApiKeysOf, removeApiKey } from './store';

export async function deleteApiKey(principal: Principal, rawId: string): Promise<void> {
  const id = parseId('apiKey', rawId);
  const record = id ? await getApiKey(principal.accountId, id) : null;
  if (!record || (record.account_user_id !== principal.accountUserId && !principal.roles.admin)) {
    throw new NotFound('API key not found');
  }
  await removeApiKey(record);
  forgetApiKey(record.id);
}

/** Revokes every key of an account user (the account user is being deleted). */
export async function deleteApiKeysOf(accountId: string, accountUserId: string): Promise<void> {
  for (const key of await listApiKeysOf(accountId, accountUserId)) {
    await removeApiKey(key);
    forgetApiKey(key.id);
  }
}
