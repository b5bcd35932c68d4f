// Entry point: escalation policies (/api/v4/escalation_policies).
import { escalationPolicyRoutes } from '../../lib/escalation-policies/routes';
import { createEscalationPolicy } from '../../lib/escalation-policies/create-escalation-policy';
import { deleteEscalationPolicy } from '../../lib/escalation-policies/delete-escalation-policy';
import { findEscalationPolicy, listEscalationPolicies } from '../../lib/escalation-policies/read-escalation-policies';
import { updateEscalationPolicy } from '../../lib/escalation-policies/update-escalation-policy';
import { escalationPolicyToV4 } from '../../lib/escalation-policies/represent';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';

export const handler = httpHandler(escalationPolicyRoutes, {
  list: async (req) => ok(await listEscalationPolicies(req.principal, req.query)),
  create: async (req) => created(escalationPolicyToV4(await createEscalationPolicy(req.principal, req.body()))),
  get: async (req) => ok(escalationPolicyToV4(await findEscalationPolicy(req.principal, req.params.id))),
  update: async (req) => ok(escalationPolicyToV4(await updateEscalationPolicy(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteEscalationPolicy(req.principal, req.params.id);
    return noContent();
  },
});
