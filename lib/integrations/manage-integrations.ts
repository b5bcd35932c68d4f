// Integration use cases, both interfaces: create, read, list, update, delete (admins only for changes,
// contract §3), and the read-only type catalogue. The domain never knows which interface called; the
// two input schemas only differ in how they name the type and the destinations.
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { Conflict, Invalid, NotFound } from '../http/errors';
import { newId, parseId } from '../ids';
import { runList, type ListSource } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import { nextTinyId } from '../store/grouped-writes';
import { ENTITY_TYPES } from '../store/items';
import { partitionSource } from '../store/partition-source';
import { findIntegrationType, INTEGRATION_TYPES, type IntegrationType } from './catalogue';
import { hasDestination, resolveEarlierDestinations, resolveV4Destinations, type Destinations } from './destinations';
import { forgetIntegration } from './integration-cache';
import type { IntegrationRecord } from './records';
import {
  integrationEarlierListSpec,
  integrationListSpec,
  integrationToEarlier,
  integrationToV4,
  integrationTypeListSpec,
  integrationTypeToV4,
} from './represent';
import {
  createIntegrationEarlierInput,
  createIntegrationV4Input,
  mergeOptions,
  optionChanges,
  parseWith,
  updateIntegrationEarlierInput,
  updateIntegrationV4Input,
} from './schemas';
import { createIntegrationRecord, deleteIntegrationRecord, getIntegration, saveIntegration } from './store';

const NO_DESTINATION = 'account_user_ids, router_ids or team_ids must name at least one destination';

function asObject(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function typeNamed(field: string, value: string): IntegrationType {
  const type = findIntegrationType(value.trim());
  if (!type) throw new Invalid(`${field} names an unknown integration type: ${value}`);
  return type;
}

const listed = (ids: unknown) => (Array.isArray(ids) ? ids.length > 0 : typeof ids === 'string' && ids.trim() !== '');

async function insert(principal: Principal, fields: Omit<IntegrationRecord, 'id' | 'account_id' | 'tiny_id' | 'version' | 'created_at' | 'updated_at'>) {
  const now = new Date().toISOString();
  const record: IntegrationRecord = {
    id: newId(),
    account_id: principal.accountId,
    tiny_id: await nextTinyId(principal.accountId, ENTITY_TYPES.integration),
    version: 1,
    ...fields,
    created_at: now,
    updated_at: now,
  };
  await createIntegrationRecord(record);
  return record;
}

export async function createIntegrationV4(principal: Principal, body: unknown): Promise<IntegrationRecord> {
  requireAdmin(principal, 'create integrations');
  const raw = asObject(body);
  let options: Record<string, unknown> | null = null;
  const input = parseWith(createIntegrationV4Input, raw, (messages) => {
    options = optionChanges(raw, messages);
    if (!listed(raw.account_user_ids) && !listed(raw.router_ids) && !listed(raw.team_ids)) messages.push(NO_DESTINATION);
  });
  const type = typeNamed('integration_type_id', input.integration_type_id);
  const destinations = await resolveV4Destinations(principal.accountId, input);
  return insert(principal, {
    name: input.name,
    enabled: input.enabled ?? true,
    urgency: input.urgency,
    integration_type_id: type.id,
    options: mergeOptions({}, options),
    ...destinations,
    meta: {},
  });
}

export async function createIntegrationEarlier(principal: Principal, body: unknown): Promise<IntegrationRecord> {
  requireAdmin(principal, 'create integrations');
  const raw = asObject(body);
  let options: Record<string, unknown> | null = null;
  const input = parseWith(createIntegrationEarlierInput, raw, (messages) => {
    options = optionChanges(raw, messages);
  });
  const type = typeNamed('type', input.type);
  const destinations = await resolveEarlierDestinations(principal.accountId, input.destination_ids);
  return insert(principal, {
    name: input.name,
    enabled: input.enabled ?? true,
    urgency: input.urgency ?? 'medium',
    integration_type_id: type.id,
    options: mergeOptions({}, options),
    ...destinations,
    meta: input.meta ?? {},
  });
}

export async function findIntegration(principal: Principal, rawId: string): Promise<IntegrationRecord> {
  const id = parseId('integration', rawId);
  const record = id ? await getIntegration(principal.accountId, id) : null;
  if (!record) throw new NotFound('Integration not found');
  return record;
}

async function saveChanges(current: IntegrationRecord, changes: Partial<IntegrationRecord>): Promise<IntegrationRecord> {
  const next: IntegrationRecord = {
    ...current,
    ...changes,
    updated_at: new Date().toISOString(),
    version: current.version + 1,
  };
  if (!hasDestination(next)) throw new Invalid(NO_DESTINATION);
  if (!(await saveIntegration(next))) {
    throw new Conflict('the integration was changed by another request; reload and try again');
  }
  forgetIntegration(next.id);
  return next;
}

export async function updateIntegrationV4(principal: Principal, rawId: string, body: unknown): Promise<IntegrationRecord> {
  const current = await findIntegration(principal, rawId);
  requireAdmin(principal, 'update integrations');
  const raw = asObject(body);
  let options: Record<string, unknown> | null = null;
  const input = parseWith(updateIntegrationV4Input, raw, (messages) => {
    options = optionChanges(raw, messages);
  });
  const destinations: Destinations =
    input.account_user_ids || input.router_ids || input.team_ids
      ? await resolveV4Destinations(principal.accountId, input, current)
      : current;
  return saveChanges(current, {
    ...definedOnly({ name: input.name, urgency: input.urgency, enabled: input.enabled }),
    options: mergeOptions(current.options, options),
    account_user_ids: destinations.account_user_ids,
    router_ids: destinations.router_ids,
    team_ids: destinations.team_ids,
    schedule_ids: destinations.schedule_ids,
    account_user_user_ids: destinations.account_user_user_ids,
  });
}

export async function updateIntegrationEarlier(principal: Principal, rawId: string, body: unknown): Promise<IntegrationRecord> {
  const current = await findIntegration(principal, rawId);
  requireAdmin(principal, 'update integrations');
  const raw = asObject(body);
  let options: Record<string, unknown> | null = null;
  const input = parseWith(updateIntegrationEarlierInput, raw, (messages) => {
    options = optionChanges(raw, messages);
  });
  const type = input.type ? typeNamed('type', input.type) : null;
  const destinations = input.destination_ids
    ? await resolveEarlierDestinations(principal.accountId, input.destination_ids)
    : current;
  return saveChanges(current, {
    ...definedOnly({ name: input.name, urgency: input.urgency, enabled: input.enabled, meta: input.meta }),
    integration_type_id: type?.id ?? current.integration_type_id,
    options: mergeOptions(current.options, options),
    account_user_ids: destinations.account_user_ids,
    router_ids: destinations.router_ids,
    team_ids: destinations.team_ids,
    schedule_ids: destinations.schedule_ids,
    account_user_user_ids: destinations.account_user_user_ids,
  });
}

export async function deleteIntegration(principal: Principal, rawId: string): Promise<void> {
  const id = parseId('integration', rawId);
  const exists = id ? await getIntegration(principal.accountId, id) : null;
  if (!exists || !id) throw new NotFound('Integration not found');
  requireAdmin(principal, 'delete integrations');
  if (!(await deleteIntegrationRecord(principal.accountId, id))) throw new NotFound('Integration not found');
  forgetIntegration(id);
}

/** `baseUrl`: where clients reach this API, for each integration's inbound `url`. */
export async function listIntegrations(principal: Principal, params: URLSearchParams, iface: ApiInterface, baseUrl = '') {
  const spec = iface === 'v4' ? integrationListSpec : integrationEarlierListSpec;
  const query = parseListQuery(params, spec, iface);
  const source = partitionSource<IntegrationRecord>(principal.accountId, ENTITY_TYPES.integration);
  return iface === 'v4'
    ? runList(query, source, (record: IntegrationRecord) => integrationToV4(record, baseUrl), { search: spec.search })
    : runList(query, source, (record: IntegrationRecord) => integrationToEarlier(record, baseUrl), { search: spec.search });
}

// ---- integration types (read-only catalogue, the same in every account) -------------------------

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

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
