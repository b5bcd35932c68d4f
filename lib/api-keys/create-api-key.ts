// POST /api/v4/api_keys (docs/api.md#roles): a key for the caller, or (admins) for another account user
// of the account; the token is answered once. Account creation issues the first admin's key too.
import { generateToken, sha256 } from '../auth/passwords';
import { Conflict, Forbidden, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newId, parseId } from '../ids';
import { existing } from '../store/entity-store';
import type { ApiKeyRecord } from './records';
import { apiKeyToV4 } from './represent';
import { createApiKeyInput } from './schemas';
import { insertApiKey } from './store';
import { nowIso } from '../clock';

export async function issueApiKey(
  accountId: string,
  accountUserId: string,
  name: string,
  token: string = generateToken(),
): Promise<{ record: ApiKeyRecord; token: string }> {
  const now = nowIso();
  const record: ApiKeyRecord = {
    id: newId(),
    account_id: accountId,
    account_user_id: accountUserId,
    name,
    token_hash: sha256(token),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  if (!(await insertApiKey(record))) throw new Conflict('that API key token is already in use');
  return { record, token };
}

export async function createApiKey(principal: Principal, body: unknown) {
  const input = parseInput(createApiKeyInput, body);
  let owner = principal.accountUserId;
  if (input.account_user_id !== undefined) {
    const id = parseId('accountUser', input.account_user_id);
    if (id !== principal.accountUserId) {
      if (!principal.roles.admin) throw new Forbidden('Only an account admin may issue keys for another account user');
      if (!id || !(await existing(principal.accountId, [['accountUser', id]]))[0]) {
        throw new Invalid(`account_user_id names no account user of this account: ${input.account_user_id}`);
      }
      owner = id;
    }
  }
  const { record, token } = await issueApiKey(principal.accountId, owner, input.name);
  return { ...apiKeyToV4(record), token };
}
