// The routing step of a new alert and the start of its escalation (contract §6, §8): the alert is
// routed (lib/alerts/route-alert.ts assigns its first destination team and user), then every
// destination team and account user starts escalating side by side. A hand-off made before routing
// ran stands: its own escalation started then. Redelivery is harmless: the start key is the alert's.
import type { AlertRecord } from '../alerts/records';
import { routeAlert, type RoutingOutcome } from '../alerts/route-alert';
import type { RoutingMessage } from '../alerts/routing-queue';
import { getAlert } from '../alerts/store';
import { startEscalation } from './start-escalation';
import type { StartTarget } from './run-step';

export function destinationTargets(alert: AlertRecord): StartTarget[] {
  return [
    ...alert.destination_team_ids.map((id): StartTarget => ({ type: 'team', id })),
    ...alert.destination_account_user_ids.map((id): StartTarget => ({ type: 'account_user', id })),
  ];
}

export async function routeAndEscalate(message: RoutingMessage, prefetched?: AlertRecord | null): Promise<RoutingOutcome> {
  const outcome = await routeAlert(message, prefetched);
  if (outcome === 'absent') return outcome;
  const alert = await getAlert(message.account_id, message.alert_id);
  if (!alert || alert.handoffs.length > 0 || alert.status !== 'open') return outcome;
  await startEscalation({ accountId: alert.account_id, alertId: alert.id, key: `route:${alert.id}`, targets: destinationTargets(alert) });
  return outcome;
}
