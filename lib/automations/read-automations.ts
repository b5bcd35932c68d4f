// Reading automations: one by id (ULID or atm_ prefix id) and the account's list.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { prefixIdFilters } from '../list/id-filters';
import { parseListQuery } from '../list/query';
import { collectionSource } from '../list/sources';
import type { AutomationRecord } from './records';
import { automationListSpec, automationToEarlier } from './represent';
import { automationCollection, getAutomation } from './store';

export async function findAutomation(principal: Principal, rawId: string): Promise<AutomationRecord> {
  const id = parseId('automation', rawId);
  const record = id ? await getAutomation(principal.accountId, id) : null;
  if (!record) throw new NotFound('Automation not found');
  return record;
}

export async function listAutomations(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(prefixIdFilters(params, { id: 'automation' }), automationListSpec, 'earlier');
  return runList(query, collectionSource(automationCollection(principal.accountId)), automationToEarlier, {
    search: automationListSpec.search,
  });
}
