// An alert event message (lib/alerts/alert-events.ts) becomes deliveries, one per receiver that wants
// it: each subscribed outgoing webhook integration gets the event as JSON (its id derived from the
// event's timeline entry and the integration), each subscribed team with chat webhooks a card or a
// follow-up (chat-deliveries.ts). A redelivered event makes none twice; each is tried at once.
import type { AlertEventMessage } from '../alerts/alert-events';
import { alertToEarlier } from '../alerts/represent';
import { getAlert } from '../alerts/store';
import { derivedUlid } from '../alerts/timeline';
import { clock } from '../clock';
import { parsePrefixedId, ulidTime } from '../ids';
import { subscribedEvents } from '../integrations/outgoing-webhook-options';
import { isOutgoingWebhook } from '../integrations/integration-kinds';
import { getIntegration } from '../integrations/store';
import { chatDeliveriesOf } from './chat-deliveries';
import { attemptDelivery } from './deliver';
import { insertDelivery } from './delivery-store';
import { newDeliveryState, type DeliveryRecord, type WebhookDelivery } from './records';

async function webhookDeliveriesOf(
  message: AlertEventMessage,
  integrationIds: string[],
  shown: () => Promise<Record<string, unknown> | null>,
) {
  const made = await Promise.all(
    integrationIds.map(async (integrationId): Promise<WebhookDelivery | null> => {
      const integration = await getIntegration(message.account_id, integrationId);
      if (!integration || !integration.enabled || !isOutgoingWebhook(integration)) return null;
      if (!subscribedEvents(integration.options).includes(message.event as never)) return null;
      const alert = await shown();
      if (!alert) return null;
      return {
        id: derivedUlid(ulidTime(message.event_id), `webhook:${message.event_id}:${integration.id}`),
        account_id: message.account_id,
        integration_id: integration.id,
        alert_id: message.alert_id,
        event: message.event,
        body: JSON.stringify({ type: message.event, data: alert }),
        ...newDeliveryState(clock.now()),
      };
    }),
  );
  return made.filter((d): d is WebhookDelivery => d !== null);
}

/** An event message: a delivery per receiver that wants it, each tried at once. */
export async function fanOutAlertEvent(message: AlertEventMessage): Promise<void> {
  let alertShown: Record<string, unknown> | null = message.alert ?? null;
  let read: Promise<Record<string, unknown> | null> | null = null;
  // The alert as the change left it travels with the message; a message too large for it reads the alert.
  const shown = () => {
    if (alertShown) return Promise.resolve(alertShown);
    read ??= getAlert(message.account_id, message.alert_id).then((alert) => {
      alertShown = alert ? alertToEarlier(alert) : null;
      return alertShown;
    });
    return read;
  };
  const teamIds: string[] = [];
  const integrationIds: string[] = [];
  for (const id of message.subscribers) {
    const parsed = parsePrefixedId(id);
    if (parsed?.kind === 'team') teamIds.push(parsed.id);
    else integrationIds.push(id);
  }
  const [webhooks, chats] = await Promise.all([
    webhookDeliveriesOf(message, integrationIds, shown),
    teamIds.length
      ? shown().then((alert) => (alert ? chatDeliveriesOf(message, teamIds, alert) : []))
      : Promise.resolve([] as DeliveryRecord[]),
  ]);
  await Promise.all(
    [...webhooks, ...chats].map(async (delivery) => {
      await insertDelivery(delivery);
      // New or found again (a redelivered event): the try runs only if it is still due.
      await attemptDelivery(message.account_id, delivery.id);
    }),
  );
}
