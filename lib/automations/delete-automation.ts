// DELETE /automation/:id (account admins). Routers that name it keep the id (api-earlier.md warns of
// the effect): their automation action is logged on the alert's timeline as an unknown automation.
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { findAutomation } from './read-automations';
import { removeAutomation } from './store';

export async function deleteAutomation(principal: Principal, rawId: string): Promise<void> {
  const current = await findAutomation(principal, rawId);
  requireAdmin(principal, 'delete automations');
  if (!(await removeAutomation(principal.accountId, current.id))) throw new NotFound('Automation not found');
}
