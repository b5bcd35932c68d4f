// Reading integrations (both interfaces) and the read-only integration type catalogue, the same in
// every account (GET /api/v4/integration_types).
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList, type ListSource } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
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
export async function listIntegrations(principal: Principal, params: URLSearchParams, iface: ApiInterface, baseUrl: string) {
  const spec = iface === 'v4' ? integrationListSpec : integrationEarlierListSpec;
  const query = parseListQuery(params, spec, iface);
  const source = collectionSource(integrationCollection(principal.accountId));
  return iface === 'v4'
    ? runList(query, source, (record: IntegrationRecord) => integrationToV4(record, baseUrl), { search: spec.search })
    : runList(query, source, (record: IntegrationRecord) => integrationToEarlier(record, baseUrl), { search: spec.search });
}

export function findType(rawId: string): IntegrationType {
  const type = findIntegrationType(rawId);
  if (!type) throw new NotFound('Integration type not found');
  return type;
}

export async function listTypes(params: URLSearchParams) {
  const query = parseListQuery(params, integrationTypeListSpec, 'v4');
  // The catalogue is in a fixed order; ids are fixed ULIDs, so "newest first" is their reverse order.
  const source: ListSource<IntegrationType> = { all: async () => [...INTEGRATION_TYPES] };
  return runList(query, source, integrationTypeToV4);
}
