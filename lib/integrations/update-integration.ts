// PUT /api/v4/integrations/:id and PUT /integration/:id (account admins): only the fields sent
// change; options merge (null or an empty value unsets one).
import { requireAdmin } from '../auth/permissions';
import { definedOnly, mergeKeys } from '../http/changes';
import { Conflict, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { asObject, NO_DESTINATION, parseWithOptions, typeNamed } from './create-integration';
import { hasDestination, resolveEarlierIntegrationDestinations, resolveV4IntegrationDestinations, type Destinations } from './destinations';
import { forgetIntegration } from './integration-cache';
import { findIntegration } from './read-integrations';
import type { IntegrationRecord } from './records';
import { updateIntegrationEarlierInput, updateIntegrationV4Input } from './schemas';
import { saveIntegration } from './store';
import { isOutgoingWebhook } from './integration-kinds';
import { checkOutgoingWebhook, syncAlertEventSubscription, withoutSecretMarkers } from './outgoing-webhooks';
import { checkHeartbeat, syncHeartbeat } from './heartbeats';
import { checkLiveCall, claimLiveCall, releaseLiveCall } from './live-calls';

async function saveChanges(current: IntegrationRecord, changes: Partial<IntegrationRecord>): Promise<IntegrationRecord> {
  const next: IntegrationRecord = {
    ...current,
    ...changes,
    updated_at: new Date().toISOString(),
    version: current.version + 1,
  };
  if (!hasDestination(next) && !isOutgoingWebhook(next)) throw new Invalid(NO_DESTINATION);
  checkOutgoingWebhook(next);
  checkHeartbeat(next);
  checkLiveCall(next);
  await claimLiveCall(next);
  if (!(await saveIntegration(next))) {
    throw new Conflict('the integration was changed by another request; reload and try again');
  }
  forgetIntegration(next.id);
  await Promise.all([syncAlertEventSubscription(current, next), syncHeartbeat(current, next), releaseLiveCall(current, next)]);
  return next;
}

function destinationFields(destinations: Destinations) {
  return {
    account_user_ids: destinations.account_user_ids,
    router_ids: destinations.router_ids,
    team_ids: destinations.team_ids,
    schedule_ids: destinations.schedule_ids,
    account_user_user_ids: destinations.account_user_user_ids,
  };
}

export async function updateIntegrationV4(principal: Principal, rawId: string, body: unknown): Promise<IntegrationRecord> {
  const current = await findIntegration(principal, rawId);
  requireAdmin(principal, 'update integrations');
  const { input, options } = parseWithOptions(updateIntegrationV4Input, asObject(body));
  const destinations: Destinations =
    input.account_user_ids || input.router_ids || input.team_ids
      ? await resolveV4IntegrationDestinations(principal.accountId, input, current)
      : current;
  return saveChanges(current, {
    ...definedOnly({ name: input.name, urgency: input.urgency, enabled: input.enabled }),
    options: mergeKeys(current.options, withoutSecretMarkers(options), 'options'),
    ...destinationFields(destinations),
  });
}

export async function updateIntegrationEarlier(principal: Principal, rawId: string, body: unknown): Promise<IntegrationRecord> {
  const current = await findIntegration(principal, rawId);
  requireAdmin(principal, 'update integrations');
  const { input, options } = parseWithOptions(updateIntegrationEarlierInput, asObject(body));
  const type = input.type ? typeNamed('type', input.type) : null;
  const destinations = input.destination_ids
    ? await resolveEarlierIntegrationDestinations(principal.accountId, input.destination_ids)
    : current;
  return saveChanges(current, {
    ...definedOnly({ name: input.name, urgency: input.urgency, enabled: input.enabled, meta: input.meta }),
    integration_type_id: type?.id ?? current.integration_type_id,
    options: mergeKeys(current.options, withoutSecretMarkers(options), 'options'),
    ...destinationFields(destinations),
  });
}
