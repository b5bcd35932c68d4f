// GET /api/v4/api_keys and /api/v4/api_keys/:id: the caller's own keys.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import type { ApiKeyRecord } from './records';
import { apiKeyListSpec, apiKeyToV4 } from './represent';
import { listApiKeysOf } from './store';

export async function findApiKey(principal: Principal, rawId: string): Promise<ApiKeyRecord> {
  const id = parseId('apiKey', rawId);
  const key = (await listApiKeysOf(principal.accountId, principal.accountUserId)).find((k) => k.id === id);
  if (!key) throw new NotFound('API key not found');
  return key;
}

export async function listApiKeys<Iface extends ApiInterface>(principal: Principal, params: URLSearchParams, iface: Iface) {
  const query = parseListQuery(params, apiKeyListSpec, iface);
  const source = { all: () => listApiKeysOf(principal.accountId, principal.accountUserId) };
  return runList(query, source, apiKeyToV4);
}
