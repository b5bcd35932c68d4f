// Data access for escalation policies (lib/escalation-policies/ACCESS-PATTERNS.md).
//   policy   A#<acc>#ESC / <id>      (a team points to its policy; teams of a policy: teams' gsi2)
import { entityStore } from '../store/entity-store';
import type { EscalationPolicyRecord } from './records';

const policies = entityStore<EscalationPolicyRecord>({ kind: 'escalationPolicy', audit: { objectType: 'escalation_policy' } });

export const getEscalationPolicy = policies.get;
export const getEscalationPolicies = policies.getMany;
export const saveEscalationPolicy = (record: EscalationPolicyRecord) => policies.save(record);
export const removeEscalationPolicy = policies.remove;
export const escalationPolicyCollection = policies.collection;

export async function insertEscalationPolicy(record: EscalationPolicyRecord): Promise<void> {
  if (!(await policies.insert(record))) throw new Error(`escalation policy ${record.id} already exists`);
}
