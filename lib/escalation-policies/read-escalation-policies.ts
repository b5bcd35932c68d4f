// Reading escalation policies: one by id (ULID or esc_ prefix id) and the account's list.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { normalizeIdFilters } from '../list/id-filters';
import { parseListQuery } from '../list/query';
import { collectionSource } from '../list/sources';
import type { EscalationPolicyRecord } from './records';
import { escalationPolicyListSpec, escalationPolicyToV4 } from './represent';
import { escalationPolicyCollection, getEscalationPolicy } from './store';

export async function findEscalationPolicy(principal: Principal, rawId: string): Promise<EscalationPolicyRecord> {
  const id = parseId('escalationPolicy', rawId);
  const record = id ? await getEscalationPolicy(principal.accountId, id) : null;
  if (!record) throw new NotFound('Escalation policy not found');
  return record;
}

export async function listEscalationPolicies(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(
    normalizeIdFilters(params, { id: 'escalationPolicy', reassign_team_ids: 'team', reassign_account_user_ids: 'accountUser' }),
    escalationPolicyListSpec,
    'v4',
  );
  return runList(query, collectionSource(escalationPolicyCollection(principal.accountId)), escalationPolicyToV4, {
    search: escalationPolicyListSpec.search,
  });
}
