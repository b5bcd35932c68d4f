// PUT /api/v4/escalation_policies/:id (account admins): only the fields sent change.
import { requireAdmin } from '../auth/permissions';
import { mergeKeys } from '../http/changes';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { reassignTargets } from './create-escalation-policy';
import { findEscalationPolicy } from './read-escalation-policies';
import type { EscalationPolicyRecord } from './records';
import { layerInputOf, layersFrom, updateEscalationPolicyInput } from './schemas';
import { saveEscalationPolicy } from './store';
import { nowIso } from '../clock';

export async function updateEscalationPolicy(principal: Principal, rawId: string, body: unknown): Promise<EscalationPolicyRecord> {
  const current = await findEscalationPolicy(principal, rawId);
  requireAdmin(principal, 'edit escalation policies');
  const input = parseInput(updateEscalationPolicyInput, body);
  const sent = layerInputOf(input);
  const { teams, users } = await reassignTargets(principal.accountId, input.reassign_team_ids, input.reassign_account_user_ids);
  const next: EscalationPolicyRecord = {
    ...current,
    name: input.name ?? current.name,
    repeat: input.repeat ?? current.repeat,
    reassign_team_ids: input.reassign_team_ids ? teams : current.reassign_team_ids,
    reassign_account_user_ids: input.reassign_account_user_ids ? users : current.reassign_account_user_ids,
    escalation_layers: sent.layers ? layersFrom(sent.layers, sent.field, current.escalation_layers) : current.escalation_layers,
    meta: mergeKeys(current.meta, input.meta, 'meta'),
    version: current.version + 1,
    updated_at: nowIso(),
  };
  if (!(await saveEscalationPolicy(next))) throw new Conflict('the escalation policy was changed by another request; reload and try again');
  return next;
}
