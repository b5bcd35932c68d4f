// Entry point: integrations, both interfaces (/api/v4/integrations, /integration) and the read-only
// integration type catalogue (/api/v4/integration_types). Each integration shows its inbound `url`,
// built on the base URL this request reached the API at. The earlier GET /integration/{id} without
// credentials is also a heartbeat's inbound address: a beat (lib/integrations/ingest/receive-beat).
import { integrationRoutes } from '../../lib/integrations/routes';
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf } from '../../lib/http/base-url';
import { accepted, created, noContent, ok } from '../../lib/http/replies';
import { carriesCredentials } from '../../lib/api/authenticate';
import { receiveBeatById } from '../../lib/integrations/ingest/receive-beat';
import { inboundRequest } from '../../lib/integrations/ingest/inbound-request';
import type { IntegrationRecord } from '../../lib/integrations/records';
import { createIntegrationEarlier, createIntegrationV4 } from '../../lib/integrations/create-integration';
import { deleteIntegration } from '../../lib/integrations/delete-integration';
import {
  findIntegration,
  findType,
  heartbeatOf,
  listIntegrationsEarlier,
  listIntegrationsV4,
  listTypes,
} from '../../lib/integrations/read-integrations';
import { updateIntegrationEarlier, updateIntegrationV4 } from '../../lib/integrations/update-integration';
import { integrationToEarlier, integrationToV4, integrationTypeToV4 } from '../../lib/integrations/represent';

const withHeartbeat = async (record: IntegrationRecord) => ({ record, heartbeat: await heartbeatOf(record) });

export const handler = httpHandler(integrationRoutes, {
  list: async (req) => ok(await listIntegrationsV4(req.principal, req.query, baseUrlOf(req))),
  create: async (req) => {
    const { record, heartbeat } = await withHeartbeat(await createIntegrationV4(req.principal, req.body()));
    return created(integrationToV4(record, baseUrlOf(req), heartbeat));
  },
  get: async (req) => {
    const { record, heartbeat } = await withHeartbeat(await findIntegration(req.principal, req.params.id));
    return ok(integrationToV4(record, baseUrlOf(req), heartbeat));
  },
  update: async (req) => {
    const { record, heartbeat } = await withHeartbeat(await updateIntegrationV4(req.principal, req.params.id, req.body()));
    return ok(integrationToV4(record, baseUrlOf(req), heartbeat));
  },
  delete: async (req) => {
    await deleteIntegration(req.principal, req.params.id);
    return noContent();
  },
  earlierList: async (req) => ok(await listIntegrationsEarlier(req.principal, req.query, baseUrlOf(req))),
  earlierCreate: async (req) => {
    const { record, heartbeat } = await withHeartbeat(await createIntegrationEarlier(req.principal, req.body()));
    return created(integrationToEarlier(record, baseUrlOf(req), heartbeat));
  },
  // Without credentials (the route's are optional) this is a heartbeat's inbound address: a beat.
  earlierGet: async (req) => {
    if (!carriesCredentials(req.headers)) return accepted(await receiveBeatById({ rawId: req.params.id, ...inboundRequest(req) }, 'GET'));
    const { record, heartbeat } = await withHeartbeat(await findIntegration(req.principal, req.params.id));
    return ok(integrationToEarlier(record, baseUrlOf(req), heartbeat));
  },
  earlierUpdate: async (req) => {
    const { record, heartbeat } = await withHeartbeat(await updateIntegrationEarlier(req.principal, req.params.id, req.body()));
    return ok(integrationToEarlier(record, baseUrlOf(req), heartbeat));
  },
  earlierDelete: async (req) => {
    await deleteIntegration(req.principal, req.params.id);
    return noContent();
  },
  listTypes: async (req) => ok(await listTypes(req.query)),
  getType: (req) => ok(integrationTypeToV4(findType(req.params.id))),
});
