// Entry point: escalation policies (/api/v4/escalation_policies).
import { routesOf } from '../../infra/routes';
import {
  createEscalationPolicy,
  deleteEscalationPolicy,
  findEscalationPolicy,
  listEscalationPolicies,
  updateEscalationPolicy,
} from '../../lib/escalation-policies/manage-escalation-policies';
import { escalationPolicyToV4 } from '../../lib/escalation-policies/represent';
import { httpHandler } from '../../lib/http/handler';
import { created, noContent, ok } from '../../lib/http/responses';

export const handler = httpHandler(routesOf('escalationPolicies'), {
  list: async (req) => ok(await listEscalationPolicies(req.principal, req.query)),
  create: async (req) => created(escalationPolicyToV4(await createEscalationPolicy(req.principal, req.body()))),
  get: async (req) => ok(escalationPolicyToV4(await findEscalationPolicy(req.principal, req.params.id))),
  update: async (req) => ok(escalationPolicyToV4(await updateEscalationPolicy(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteEscalationPolicy(req.principal, req.params.id);
    return noContent();
  },
});
