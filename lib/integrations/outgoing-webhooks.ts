// Outgoing webhook integrations on save (docs/api.md#routers-and-automations): their options checked, their secrets kept
// when a client sends back the marker it read, and the account's alert event subscribers kept in
// step (an enabled outgoing webhook subscribes to its events; disabled or deleted, it does not).
import { setAlertEventSubscriber } from '../alert-subscribers/subscribers';
import { config } from '../config';
import { Invalid } from '../http/errors';
import { findIntegrationType } from './integration-types';
import { isOutgoingWebhook } from './integration-kinds';
import { outgoingWebhookFaults } from './outgoing-webhook-checks';
import { OUTGOING_WEBHOOK_SLUG, subscribedEvents, withoutSecretMarkers } from './outgoing-webhook-options';
import type { IntegrationRecord } from './records';

/** A type named in a request (id, itt_ id or slug) is the outgoing webhook type. */
export function namesOutgoingWebhook(value: unknown): boolean {
  return typeof value === 'string' && findIntegrationType(value.trim())?.slug === OUTGOING_WEBHOOK_SLUG;
}

export { withoutSecretMarkers };

/** Checks (and normalizes) an outgoing webhook's options as they will be stored; Invalid naming each fault. */
export function checkOutgoingWebhook(record: Pick<IntegrationRecord, 'integration_type_id' | 'options'>): void {
  if (!isOutgoingWebhook(record)) return;
  const faults = outgoingWebhookFaults(record.options, config().ALLOW_PRIVATE_AUTOMATION_TARGETS);
  if (faults.length > 0) throw new Invalid(faults);
}

/** Keeps the alert event subscribers in step with an integration that was saved (or deleted: null). */
export async function syncAlertEventSubscription(before: IntegrationRecord | null, after: IntegrationRecord | null): Promise<void> {
  const record = after ?? before;
  if (!record || !((before && isOutgoingWebhook(before)) || (after && isOutgoingWebhook(after)))) return;
  const subscribed = after && after.enabled && isOutgoingWebhook(after) ? subscribedEvents(after.options) : null;
  await setAlertEventSubscriber(record.account_id, record.id, subscribed);
}
