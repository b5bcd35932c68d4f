// Reading teams: one by id (ULID or tem_ prefix id) and the account's list.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { normalizeIdFilters } from '../list/id-filters';
import { parseListQuery } from '../list/query';
import { collectionSource } from '../list/sources';
import type { TeamRecord } from './records';
import { TEAM_REFERENCE_FILTERS, teamListSpec, teamToV4 } from './represent';
import { getTeam, teamCollection } from './store';

export async function findTeam(principal: Principal, rawId: string): Promise<TeamRecord> {
  const id = parseId('team', rawId);
  const record = id ? await getTeam(principal.accountId, id) : null;
  if (!record) throw new NotFound('Team not found');
  return record;
}

export async function listTeams(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, TEAM_REFERENCE_FILTERS), teamListSpec, 'v4');
  return runList(query, collectionSource(teamCollection(principal.accountId)), teamToV4, { search: teamListSpec.search });
}
