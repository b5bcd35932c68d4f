// GET /api/v4/scim_tokens (admins): the account's SCIM tokens, without secrets; one of them for the revoke.
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery } from '../list/query';
import type { ScimTokenRecord } from './records';
import { scimTokenListSpec, scimTokenToV4 } from './token-represent';
import { getScimToken, listScimTokens } from './token-store';

export async function findScimToken(principal: Principal, rawId: string): Promise<ScimTokenRecord> {
  requireAdmin(principal, 'read SCIM tokens');
  const id = parseId('scimToken', rawId);
  const record = id ? await getScimToken(principal.accountId, id) : null;
  if (!record) throw new NotFound('SCIM token not found');
  return record;
}

export async function listScimTokensOf(principal: Principal, params: URLSearchParams) {
  requireAdmin(principal, 'list SCIM tokens');
  const query = parseListQuery(params, scimTokenListSpec, 'v4');
  return runList(query, { all: () => listScimTokens(principal.accountId) }, scimTokenToV4);
}
