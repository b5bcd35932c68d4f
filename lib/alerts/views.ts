// The earlier interface's deprecated /broadcast and /incident endpoints: views of alerts
// (subtype broadcast; meta.incident true) that answer earlier-style alert objects and list only
// their kind (contract §11). Broadcasts need the admin or broadcaster role (contract §3).
import { requireRole } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { createAlertEarlier } from './create-alert-request';
import { deleteAlert } from './delete-alert';
import type { AlertRecord } from './records';
import { BROADCAST_VIEW, findAlert, INCIDENT_VIEW } from './read-alerts';

const VIEW_DESTINATIONS = ['team', 'user', 'accountUser'] as const;

export async function createBroadcast(principal: Principal, body: unknown): Promise<AlertRecord> {
  requireRole(principal, ['admin', 'broadcaster'], 'send broadcasts');
  return createAlertEarlier(principal, body, { subtype: 'broadcast', kinds: [...VIEW_DESTINATIONS] });
}

export async function deleteBroadcast(principal: Principal, rawId: string): Promise<void> {
  requireRole(principal, ['admin', 'broadcaster'], 'delete broadcasts');
  await deleteAlert(principal, rawId, BROADCAST_VIEW);
}

export async function createIncident(principal: Principal, body: unknown): Promise<AlertRecord> {
  return createAlertEarlier(principal, body, { meta: { incident: true }, kinds: [...VIEW_DESTINATIONS] });
}

export const findBroadcast = (principal: Principal, rawId: string) => findAlert(principal, rawId, BROADCAST_VIEW);
export const findIncident = (principal: Principal, rawId: string) => findAlert(principal, rawId, INCIDENT_VIEW);
