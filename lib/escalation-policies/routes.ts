// The routes of the `escalationPolicies` function (functions/http/escalation-policies.ts).
import { declareRoutes } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { createEscalationPolicyInput, EscalationPolicyV4, updateEscalationPolicyInput } from './schemas';

export const escalationPolicyRoutes = declareRoutes(
  'escalationPolicies',
  standardRoutes('/api/v4/escalation_policies', {
    tag: 'Escalation policies',
    noun: 'escalation policy',
    plural: 'escalation policies',
    item: EscalationPolicyV4,
    create: createEscalationPolicyInput,
    update: updateEscalationPolicyInput,
    form: true,
    writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
    descriptions: {
      create: 'escalation_layers may also arrive as escalation_layers_attributes (entries with _destroy are dropped).',
      delete: 'Teams that used it lose their pointer to it.',
    },
  }),
);
