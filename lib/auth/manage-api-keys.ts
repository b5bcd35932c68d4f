// POST/GET/DELETE /api/v4/api_keys (contract §3).
import * as z from 'zod';
import { issueApiKey } from '../accounts/create-account';
import { getAccountUser } from '../account-users/store';
import { Forbidden, Invalid, NotFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId, prefixId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface, type ListSpec } from '../list/query';
import { V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import { apiKeysOf, deleteApiKeyRecord, getApiKey, type ApiKeyRecord } from './api-keys';
import { forgetApiKey } from './authenticate';
import type { Principal } from './principal';

const createInput = z.object({
  name: z.string().trim().min(1),
  account_user_id: z.string().trim().min(1).optional(),
});

export function apiKeyToV4(record: ApiKeyRecord) {
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

export async function createApiKey(principal: Principal, body: unknown) {
  const input = parseInput(createInput, body);
  let owner = principal.accountUserId;
  if (input.account_user_id !== undefined) {
    const id = parseId('accountUser', input.account_user_id);
    if (id !== principal.accountUserId) {
      if (!principal.roles.admin) throw new Forbidden('Only an account admin may issue keys for another account user');
      if (!id || !(await getAccountUser(principal.accountId, id))) {
        throw new Invalid(`account_user_id names no account user of this account: ${input.account_user_id}`);
      }
      owner = id;
    }
  }
  const { record, token } = await issueApiKey(principal.accountId, owner, input.name);
  return { ...apiKeyToV4(record), token };
}

const listSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    name: 'string',
    account_user_id: 'string',
  },
};

export async function listApiKeys(principal: Principal, params: URLSearchParams, iface: ApiInterface) {
  const query = parseListQuery(params, listSpec, iface);
  const source = { all: () => apiKeysOf(principal.accountId, principal.accountUserId) };
  return runList(query, source, apiKeyToV4);
}

/** Revokes a key: the caller's own, or (admins) any key of the account. */
export async function revokeApiKey(principal: Principal, rawId: string): Promise<void> {
  const id = parseId('apiKey', rawId);
  const record = id ? await getApiKey(principal.accountId, id) : null;
  if (!record || (record.account_user_id !== principal.accountUserId && !principal.roles.admin)) {
    throw new NotFound('API key not found');
  }
  await deleteApiKeyRecord(record);
  forgetApiKey(record.id);
}
