// Data access for escalation policies (lib/escalation-policies/ACCESS-PATTERNS.md).
//   policy   A#<acc>#ESC / <id>      (a team points to its policy; teams of a policy: teams' gsi2)
import { insertEntity, loadEntity, removeEntity, saveEntity } from '../store/entities';
import { ENTITY_TYPES } from '../store/items';
import type { EscalationPolicyRecord } from './records';

const TYPE = ENTITY_TYPES.escalationPolicy;

export async function getEscalationPolicy(accountId: string, id: string): Promise<EscalationPolicyRecord | null> {
  return loadEntity<EscalationPolicyRecord>(accountId, TYPE, id);
}

export async function insertEscalationPolicy(record: EscalationPolicyRecord): Promise<void> {
  if (!(await insertEntity(TYPE, record))) throw new Error(`escalation policy ${record.id} already exists`);
}

export async function saveEscalationPolicy(record: EscalationPolicyRecord): Promise<boolean> {
  return saveEntity(TYPE, record);
}

export async function deleteEscalationPolicyRecord(accountId: string, id: string): Promise<EscalationPolicyRecord | null> {
  return removeEntity<EscalationPolicyRecord>(accountId, TYPE, id);
}
