// DELETE /api/v4/escalation_policies/:id (account admins): clears the pointer of every team that used it.
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { unsetTeamPolicy } from '../teams/detach';
import { findEscalationPolicy } from './read-escalation-policies';
import { removeEscalationPolicy } from './store';

export async function deleteEscalationPolicy(principal: Principal, rawId: string): Promise<void> {
  const current = await findEscalationPolicy(principal, rawId);
  requireAdmin(principal, 'delete escalation policies');
  if (!(await removeEscalationPolicy(principal.accountId, current.id))) throw new NotFound('Escalation policy not found');
  await unsetTeamPolicy(principal.accountId, current.id);
}
