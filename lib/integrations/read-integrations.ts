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
import { getHeartbeat, getHeartbeats, type HeartbeatState } from './heartbeat-store';
import { heartbeatViewOf, type HeartbeatView } from './heartbeats';
import { isHeartbeat } from './integration-kinds';

export async function findIntegration(principal: Principal, rawId: string): Promise<IntegrationRecord> {
  const id = parseId('integration', rawId);
  const record = id ? await getIntegration(principal.accountId, id) : null;
  if (!record) throw new NotFound('Integration not found');
  return record;
}

/** A heartbeat integration's state as it shows it (undefined for other types): one GetItem. */
export async function heartbeatOf(record: IntegrationRecord): Promise<HeartbeatView | undefined> {
  return isHeartbeat(record) ? heartbeatViewOf(record, await getHeartbeat(record.id)) : undefined;
}

/** The account's integrations, each heartbeat with its state: the states of what a read returns,
 * in one BatchGetItem per 100 (read before serializing, which filters and sorts see). */
function integrationsWithHeartbeats(accountId: string) {
  const source = collectionSource(integrationCollection(accountId));
  const states = new Map<string, HeartbeatState>();
  const load = async (records: IntegrationRecord[]) => {
    const ids = records.filter(isHeartbeat).map((record) => record.id);
    if (ids.length > 0) for (const [id, state] of await getHeartbeats(ids)) states.set(id, state);
    return records;
  };
  const withStates: ListSource<IntegrationRecord> = {
    ...source,
    all: async (limit) => load(await source.all(limit)),
    fast: async (query) => {
      const found = await source.fast!(query);
      if (found) await load(found.page);
      return found;
    },
  };
  const heartbeat = (record: IntegrationRecord) => (isHeartbeat(record) ? heartbeatViewOf(record, states.get(record.id)) : undefined);
  return { source: withStates, heartbeat };
}

/** `baseUrl`: where clients reach this API, for each integration's inbound `url`. */
export async function listIntegrationsV4(principal: Principal, params: URLSearchParams, baseUrl: string) {
  const query = parseListQuery(params, integrationListSpec, 'v4');
  const { source, heartbeat } = integrationsWithHeartbeats(principal.accountId);
  return runList(query, source, (record: IntegrationRecord) => integrationToV4(record, baseUrl, heartbeat(record)), {
    search: integrationListSpec.search,
  });
}

/** `baseUrl`: as listIntegrationsV4. */
export async function listIntegrationsEarlier(principal: Principal, params: URLSearchParams, baseUrl: string) {
  const query = parseListQuery(params, integrationEarlierListSpec, 'earlier');
  const { source, heartbeat } = integrationsWithHeartbeats(principal.accountId);
  return runList(query, source, (record: IntegrationRecord) => integrationToEarlier(record, baseUrl, heartbeat(record)), {
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
