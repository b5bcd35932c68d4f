// POST /api/v4/integrations and POST /integration (account admins, docs/api.md#roles): the two inputs only
// differ in how they name the type and the destinations; options come from `options` and option_*.
import type * as z from 'zod';
import { requireAdmin } from '../auth/permissions';
import { mergeKeys } from '../http/changes';
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { findIntegrationType, type IntegrationType } from './integration-types';
import { resolveEarlierIntegrationDestinations, resolveV4IntegrationDestinations } from './destinations';
import type { IntegrationRecord } from './records';
import { createIntegrationEarlierInput, createIntegrationV4Input, optionChanges } from './schemas';
import { insertIntegration, nextIntegrationTinyId } from './store';
import { newEntity } from '../store/entity-store';
import { checkOutgoingWebhook, namesOutgoingWebhook, syncAlertEventSubscription } from './outgoing-webhooks';
import { checkHeartbeat, syncHeartbeat } from './heartbeats';
import { checkLiveCall, claimLiveCall } from './live-calls';

export const NO_DESTINATION = 'account_user_ids, router_ids or team_ids must name at least one destination';

export function asObject(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

export function typeNamed(field: string, value: string): IntegrationType {
  const type = findIntegrationType(value.trim());
  if (!type) throw new Invalid(`${field} names an unknown integration type: ${value}`);
  return type;
}

/** Validates the body and reads its option changes in one pass, so one answer names every fault. */
export function parseWithOptions<S extends z.ZodType>(
  schema: S,
  raw: Record<string, unknown>,
  checks: (messages: string[]) => void = () => {},
) {
  let options: Record<string, unknown> | null = null;
  const input = parseInput(schema, raw, () => {
    const messages: string[] = [];
    options = optionChanges(raw, messages);
    checks(messages);
    return messages;
  });
  return { input, options: options as Record<string, unknown> | null };
}

const listed = (ids: unknown) => (Array.isArray(ids) ? ids.length > 0 : typeof ids === 'string' && ids.trim() !== '');

async function insert(
  principal: Principal,
  fields: Omit<IntegrationRecord, 'id' | 'account_id' | 'tiny_id' | 'version' | 'created_at' | 'updated_at'>,
) {
  checkOutgoingWebhook(fields);
  checkHeartbeat(fields);
  checkLiveCall(fields);
  const record: IntegrationRecord = {
    ...newEntity(principal.accountId),
    tiny_id: await nextIntegrationTinyId(principal.accountId),
    ...fields,
  };
  await claimLiveCall(record);
  await syncHeartbeat(null, record);
  await insertIntegration(record);
  await syncAlertEventSubscription(null, record);
  return record;
}

export async function createIntegrationV4(principal: Principal, body: unknown): Promise<IntegrationRecord> {
  requireAdmin(principal, 'create integrations');
  const raw = asObject(body);
  const { input, options } = parseWithOptions(createIntegrationV4Input, raw, (messages) => {
    // An outgoing webhook sends alerts out: it has no destinations to name.
    if (
      !namesOutgoingWebhook(raw.integration_type_id) &&
      !listed(raw.account_user_ids) &&
      !listed(raw.router_ids) &&
      !listed(raw.team_ids)
    ) {
      messages.push(NO_DESTINATION);
    }
  });
  const type = typeNamed('integration_type_id', input.integration_type_id);
  const destinations = await resolveV4IntegrationDestinations(principal.accountId, input);
  return insert(principal, {
    name: input.name,
    enabled: input.enabled ?? true,
    urgency: input.urgency,
    integration_type_id: type.id,
    options: mergeKeys({}, options, 'options'),
    ...destinations,
    meta: {},
  });
}

export async function createIntegrationEarlier(principal: Principal, body: unknown): Promise<IntegrationRecord> {
  requireAdmin(principal, 'create integrations');
  const raw = asObject(body);
  const outgoing = namesOutgoingWebhook(raw.type);
  const { input, options } = parseWithOptions(createIntegrationEarlierInput, raw, (messages) => {
    if (!outgoing && raw.destination_ids === undefined) messages.push("destination_ids can't be blank");
    else if (!outgoing && Array.isArray(raw.destination_ids) && raw.destination_ids.length === 0)
      messages.push('destination_ids must have at least 1 entry');
  });
  const type = typeNamed('type', input.type);
  const destinations = await resolveEarlierIntegrationDestinations(principal.accountId, input.destination_ids ?? []);
  return insert(principal, {
    name: input.name,
    enabled: input.enabled ?? true,
    urgency: input.urgency ?? 'medium',
    integration_type_id: type.id,
    options: mergeKeys({}, options, 'options'),
    ...destinations,
    meta: input.meta ?? {},
  });
}
