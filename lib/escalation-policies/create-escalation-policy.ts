// POST /api/v4/escalation_policies (docs/api.md#escalation-policies, account admins), and the policy a new team gets.
import { requireAdmin } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import { DEFAULT_LAYERS, type EscalationPolicyRecord } from './records';
import { createEscalationPolicyInput, layerInputOf, layersFrom } from './schemas';
import { insertEscalationPolicy } from './store';
import { newEntity } from '../store/entity-store';

/** Writes a new policy (no permission check: team creation makes one for its team). */
export async function insertNewEscalationPolicy(
  accountId: string,
  fields: Pick<EscalationPolicyRecord, 'name'> & Partial<Omit<EscalationPolicyRecord, 'id' | 'account_id' | 'version'>>,
): Promise<EscalationPolicyRecord> {
  const record: EscalationPolicyRecord = {
    ...newEntity(accountId),
    name: fields.name,
    repeat: fields.repeat ?? 0,
    reassign_team_ids: fields.reassign_team_ids ?? [],
    reassign_account_user_ids: fields.reassign_account_user_ids ?? [],
    escalation_layers: fields.escalation_layers ?? DEFAULT_LAYERS.map((layer) => ({ id: newId(), ...layer })),
    meta: fields.meta ?? {},
  };
  await insertEscalationPolicy(record);
  return record;
}

/** Reassign targets must be teams and account users of the account (checked when saved). */
export async function reassignTargets(accountId: string, teamIds: string[] | undefined, userIds: string[] | undefined) {
  const [teams, users] = await resolveReferences(accountId, [
    { field: 'reassign_team_ids', kind: 'team', ids: teamIds },
    { field: 'reassign_account_user_ids', kind: 'accountUser', ids: userIds },
  ]);
  return { teams, users };
}

export async function createEscalationPolicy(principal: Principal, body: unknown): Promise<EscalationPolicyRecord> {
  requireAdmin(principal, 'create escalation policies');
  const input = parseInput(createEscalationPolicyInput, body);
  const sent = layerInputOf(input);
  const layers = sent.layers ? layersFrom(sent.layers, sent.field) : undefined;
  const { teams, users } = await reassignTargets(principal.accountId, input.reassign_team_ids, input.reassign_account_user_ids);
  return insertNewEscalationPolicy(principal.accountId, {
    name: input.name,
    repeat: input.repeat,
    reassign_team_ids: teams,
    reassign_account_user_ids: users,
    escalation_layers: layers,
    meta: withoutNulls(input.meta),
  });
}
