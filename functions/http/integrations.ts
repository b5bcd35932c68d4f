// Entry point: integrations, both interfaces (/api/v4/integrations, /integration) and the read-only
// integration type catalogue (/api/v4/integration_types). Each integration shows its inbound `url`,
// built on the base URL this request reached the API at.
import { integrationRoutes } from '../../lib/integrations/routes';
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf } from '../../lib/http/base-url';
import { created, noContent, ok } from '../../lib/http/replies';
import { createIntegrationEarlier, createIntegrationV4 } from '../../lib/integrations/create-integration';
import { deleteIntegration } from '../../lib/integrations/delete-integration';
import {
  findIntegration,
  findType,
  listIntegrationsEarlier,
  listIntegrationsV4,
  listTypes,
} from '../../lib/integrations/read-integrations';
import { updateIntegrationEarlier, updateIntegrationV4 } from '../../lib/integrations/update-integration';
import { integrationToEarlier, integrationToV4, integrationTypeToV4 } from '../../lib/integrations/represent';

export const handler = httpHandler(integrationRoutes, {
  list: async (req) => ok(await listIntegrationsV4(req.principal, req.query, baseUrlOf(req))),
  create: async (req) => created(integrationToV4(await createIntegrationV4(req.principal, req.body()), baseUrlOf(req))),
  get: async (req) => ok(integrationToV4(await findIntegration(req.principal, req.params.id), baseUrlOf(req))),
  update: async (req) => ok(integrationToV4(await updateIntegrationV4(req.principal, req.params.id, req.body()), baseUrlOf(req))),
  delete: async (req) => {
    await deleteIntegration(req.principal, req.params.id);
    return noContent();
  },
  earlierList: async (req) => ok(await listIntegrationsEarlier(req.principal, req.query, baseUrlOf(req))),
  earlierCreate: async (req) => created(integrationToEarlier(await createIntegrationEarlier(req.principal, req.body()), baseUrlOf(req))),
  earlierGet: async (req) => ok(integrationToEarlier(await findIntegration(req.principal, req.params.id), baseUrlOf(req))),
  earlierUpdate: async (req) =>
    ok(integrationToEarlier(await updateIntegrationEarlier(req.principal, req.params.id, req.body()), baseUrlOf(req))),
  earlierDelete: async (req) => {
    await deleteIntegration(req.principal, req.params.id);
    return noContent();
  },
  listTypes: async (req) => ok(await listTypes(req.query)),
  getType: (req) => ok(integrationTypeToV4(findType(req.params.id))),
});
