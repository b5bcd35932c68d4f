// Reading integrations (both interfaces) and the read-only integration type catalogue, the same in
// every account (GET /api/v4/integration_types).
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList, type ListSource } from '../list/engine';
import { parseListQuery } from '../list/query';
import { collectionSource } from '../list/sources';
import { findIntegrationType, INTEGRATION_TYPES, type IntegrationType } from './integration-types';
import type { IntegrationRecord } from './records';
import {
  integrationEarlierListSpec,
  integrationListSpec,
  integrationToEarlier,
  integrationToV4,
  integrationTypeListSpec,
  integrationTypeToV4,
} from './represent';
import { getIntegration, integrationCollection } from './store';

export async function findIntegration(principal: Principal, rawId: string): Promise<IntegrationRecord> {
  const id = parseId('integration', rawId);
  const record = id ? await getIntegration(principal.accountId, id) : null;
  if (!record) throw new NotFound('Integration not found');
  return record;
}

/** `baseUrl`: where clients reach this API, for each integration's inbound `url`. */
export async function listIntegrationsV4(principal: Principal, params: URLSearchParams, baseUrl: string) {
  const query = parseListQuery(params, integrationListSpec, 'v4');
  const source = collectionSource(integrationCollection(principal.accountId));
  return runList(query, source, (record: IntegrationRecord) => integrationToV4(record, baseUrl), { search: integrationListSpec.search });
}

/** `baseUrl`: as listIntegrationsV4. */
export async function listIntegrationsEarlier(principal: Principal, params: URLSearchParams, baseUrl: string) {
  const query = parseListQuery(params, integrationEarlierListSpec, 'earlier');
  const source = collectionSource(integrationCollection(principal.accountId));
  return runList(query, source, (record: IntegrationRecord) => integrationToEarlier(record, baseUrl), {
    search: integrationEarlierListSpec.search,
  });
}

export function findType(rawId: string): IntegrationType {
  const type = findIntegrationType(rawId);
  if (!type) throw new NotFound('Integration type not found');
  return type;
}

export async function listTypes(params: URLSearchParams) {
  const query = parseListQuery(params, integrationTypeListSpec, 'v4');
  // The catalogue is in a fixed order; ids are fixed ULIDs, so "newest first" is their reverse order.
  const source: ListSource<IntegrationType> = { all: () => Promise.resolve([...INTEGRATION_TYPES]) };
  return runList(query, source, integrationTypeToV4);
}
