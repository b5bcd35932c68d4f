// DELETE /api/v4/integrations/:id and DELETE /integration/:id (account admins).
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { forgetIntegration } from './integration-cache';
import { getIntegration, removeIntegration } from './store';
import { syncAlertEventSubscription } from './outgoing-webhooks';
import { syncHeartbeat } from './heartbeats';
import { releaseLiveCall } from './live-calls';

export async function deleteIntegration(principal: Principal, rawId: string): Promise<void> {
  const id = parseId('integration', rawId);
  const exists = id ? await getIntegration(principal.accountId, id) : null;
  if (!exists || !id) throw new NotFound('Integration not found');
  requireAdmin(principal, 'delete integrations');
  if (!(await removeIntegration(principal.accountId, id))) throw new NotFound('Integration not found');
  forgetIntegration(id);
  await Promise.all([syncAlertEventSubscription(exists, null), syncHeartbeat(exists, null), releaseLiveCall(exists, null)]);
}
