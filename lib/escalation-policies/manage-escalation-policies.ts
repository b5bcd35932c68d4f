// Escalation policies (/api/v4/escalation_policies, contract §7): standard operations, account
// admins only. Deleting one clears the pointer of every team that used it.
import { requireAdmin } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { Conflict, Invalid, NotFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { newId, parseId } from '../ids';
import { runList } from '../list/engine';
import { parseListQuery } from '../list/query';
import { ENTITY_TYPES } from '../store/items';
import { partitionSource } from '../store/partition-source';
import { resolveReferences } from '../store/references';
import { unsetTeamPolicy } from '../teams/detach';
import { mergeMeta, normalizeIdFilters } from '../teams/inputs';
import { DEFAULT_LAYERS, type EscalationLayerRecord, type EscalationPolicyRecord } from './records';
import { escalationPolicyListSpec, escalationPolicyToV4 } from './represent';
import { createEscalationPolicyInput, updateEscalationPolicyInput, type LayerInput } from './schemas';
import {
  deleteEscalationPolicyRecord,
  getEscalationPolicy,
  insertEscalationPolicy,
  saveEscalationPolicy,
} from './store';

/** Layers as sent, numbered by position when no number is given; ids kept for numbers that stay. */
function layersFrom(input: LayerInput[], field: string, previous: EscalationLayerRecord[] = []): EscalationLayerRecord[] {
  const kept = input.filter((entry) => !entry._destroy);
  const layers = kept.map((entry, index) => ({
    id: previous.find((p) => p.layer === (entry.layer ?? index + 1))?.id ?? newId(),
    layer: entry.layer ?? index + 1,
    timeout: entry.timeout,
    timeout_unit: entry.timeout_unit ?? 'minutes',
  }));
  const numbers = layers.map((l) => l.layer);
  const duplicate = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (duplicate !== undefined) throw new Invalid(`${field} lists layer ${duplicate} twice`);
  // A policy without layers would wake no one: every alert of its teams would be dropped at once.
  if (layers.length === 0) throw new Invalid(`${field} must have at least 1 entry`);
  return layers.sort((a, b) => a.layer - b.layer);
}

/** Writes a new policy (no permission check: team creation makes one for its team). */
export async function insertNewEscalationPolicy(
  accountId: string,
  fields: Pick<EscalationPolicyRecord, 'name'> & Partial<Omit<EscalationPolicyRecord, 'id' | 'account_id' | 'version'>>,
): Promise<EscalationPolicyRecord> {
  const now = new Date().toISOString();
  const record: EscalationPolicyRecord = {
    id: newId(),
    account_id: accountId,
    version: 1,
    name: fields.name,
    repeat: fields.repeat ?? 0,
    reassign_team_ids: fields.reassign_team_ids ?? [],
    reassign_account_user_ids: fields.reassign_account_user_ids ?? [],
    escalation_layers: fields.escalation_layers ?? DEFAULT_LAYERS.map((layer) => ({ id: newId(), ...layer })),
    meta: fields.meta ?? {},
    created_at: now,
    updated_at: now,
  };
  await insertEscalationPolicy(record);
  return record;
}

async function reassignTargets(accountId: string, teamIds: string[] | undefined, userIds: string[] | undefined) {
  const [teams, users] = await resolveReferences(accountId, [
    { field: 'reassign_team_ids', kind: 'team', type: ENTITY_TYPES.team, ids: teamIds },
    { field: 'reassign_account_user_ids', kind: 'accountUser', type: ENTITY_TYPES.accountUser, ids: userIds },
  ]);
  return { teams, users };
}

export async function findEscalationPolicy(principal: Principal, rawId: string): Promise<EscalationPolicyRecord> {
  const id = parseId('escalationPolicy', rawId);
  const record = id ? await getEscalationPolicy(principal.accountId, id) : null;
  if (!record) throw new NotFound('Escalation policy not found');
  return record;
}

export async function createEscalationPolicy(principal: Principal, body: unknown): Promise<EscalationPolicyRecord> {
  requireAdmin(principal, 'create escalation policies');
  const input = parseInput(createEscalationPolicyInput, body);
  const layerField = input.escalation_layers ? 'escalation_layers' : 'escalation_layers_attributes';
  const layerInput = input.escalation_layers ?? input.escalation_layers_attributes;
  const layers = layerInput ? layersFrom(layerInput, layerField) : undefined;
  const { teams, users } = await reassignTargets(principal.accountId, input.reassign_team_ids, input.reassign_account_user_ids);
  return insertNewEscalationPolicy(principal.accountId, {
    name: input.name,
    repeat: input.repeat,
    reassign_team_ids: teams,
    reassign_account_user_ids: users,
    escalation_layers: layers,
    meta: mergeMeta({}, input.meta),
  });
}

export async function updateEscalationPolicy(principal: Principal, rawId: string, body: unknown): Promise<EscalationPolicyRecord> {
  const current = await findEscalationPolicy(principal, rawId);
  requireAdmin(principal, 'edit escalation policies');
  const input = parseInput(updateEscalationPolicyInput, body);
  const layerField = input.escalation_layers ? 'escalation_layers' : 'escalation_layers_attributes';
  const layerInput = input.escalation_layers ?? input.escalation_layers_attributes;
  const { teams, users } = await reassignTargets(principal.accountId, input.reassign_team_ids, input.reassign_account_user_ids);
  const next: EscalationPolicyRecord = {
    ...current,
    name: input.name ?? current.name,
    repeat: input.repeat ?? current.repeat,
    reassign_team_ids: input.reassign_team_ids ? teams : current.reassign_team_ids,
    reassign_account_user_ids: input.reassign_account_user_ids ? users : current.reassign_account_user_ids,
    escalation_layers: layerInput ? layersFrom(layerInput, layerField, current.escalation_layers) : current.escalation_layers,
    meta: mergeMeta(current.meta, input.meta),
    version: current.version + 1,
    updated_at: new Date().toISOString(),
  };
  if (!(await saveEscalationPolicy(next))) throw new Conflict('the escalation policy was changed by another request; reload and try again');
  return next;
}

export async function deleteEscalationPolicy(principal: Principal, rawId: string): Promise<void> {
  const current = await findEscalationPolicy(principal, rawId);
  requireAdmin(principal, 'delete escalation policies');
  if (!(await deleteEscalationPolicyRecord(principal.accountId, current.id))) throw new NotFound('Escalation policy not found');
  await unsetTeamPolicy(principal.accountId, current.id);
}

export async function listEscalationPolicies(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(
    normalizeIdFilters(params, { id: 'escalationPolicy', reassign_team_ids: 'team', reassign_account_user_ids: 'accountUser' }),
    escalationPolicyListSpec,
    'v4',
  );
  return runList(query, partitionSource<EscalationPolicyRecord>(principal.accountId, ENTITY_TYPES.escalationPolicy), escalationPolicyToV4, {
    search: escalationPolicyListSpec.search,
  });
}
