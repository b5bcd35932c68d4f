// Entry point: integrations, both interfaces (/api/v4/integrations, /integration) and the read-only
// integration type catalogue (/api/v4/integration_types). Each integration shows its inbound `url`,
// built on the base URL this request reached the API at. The earlier GET /integration/{id} without
// credentials is also a heartbeat's inbound address: a beat (lib/integrations/ingest/receive-beat).
// Each kind of route loads its use case with its first request (a chunk of its own in the deployed
// bundle): a cold start that answers a heartbeat's beat does not load the integrations' writes, and
// one that reads or writes integrations does not load the beat's alert resolution and escalation
// stop (issue 21).
import { integrationRoutes } from '../../lib/integrations/routes';
import { httpHandler } from '../../lib/api/handler';
import { carriesCredentials } from '../../lib/api/authenticate';
import { baseUrlOf } from '../../lib/http/base-url';
import { accepted, created, noContent, ok } from '../../lib/http/replies';
import type { IntegrationRecord } from '../../lib/integrations/records';
import { loadOnce } from '../../lib/load-once';

const loadIntegrationsDeleteIntegration = /* @__PURE__ */ loadOnce(() => import('../../lib/integrations/delete-integration'));
const loadIngestReceiveBeat = /* @__PURE__ */ loadOnce(() => import('../../lib/integrations/ingest/receive-beat'));
const loadIngestInboundRequest = /* @__PURE__ */ loadOnce(() => import('../../lib/integrations/ingest/inbound-request'));

const reads = /* @__PURE__ */ loadOnce(() =>
  Promise.all([import('../../lib/integrations/read-integrations'), import('../../lib/integrations/represent')]),
);
const creation = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/integrations/create-integration'), reads()]));
const updates = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/integrations/update-integration'), reads()]));

const withHeartbeat = async (record: IntegrationRecord) => {
  const [{ heartbeatOf }] = await reads();
  return { record, heartbeat: await heartbeatOf(record) };
};

export const handler = httpHandler(integrationRoutes, {
  list: async (req) => {
    const [{ listIntegrationsV4 }] = await reads();
    return ok(await listIntegrationsV4(req.principal, req.query, baseUrlOf(req)));
  },
  create: async (req) => {
    const [{ createIntegrationV4 }, [, { integrationToV4 }]] = await creation();
    const { record, heartbeat } = await withHeartbeat(await createIntegrationV4(req.principal, req.body()));
    return created(integrationToV4(record, baseUrlOf(req), heartbeat));
  },
  get: async (req) => {
    const [{ findIntegration }, { integrationToV4 }] = await reads();
    const { record, heartbeat } = await withHeartbeat(await findIntegration(req.principal, req.params.id));
    return ok(integrationToV4(record, baseUrlOf(req), heartbeat));
  },
  update: async (req) => {
    const [{ updateIntegrationV4 }, [, { integrationToV4 }]] = await updates();
    const { record, heartbeat } = await withHeartbeat(await updateIntegrationV4(req.principal, req.params.id, req.body()));
    return ok(integrationToV4(record, baseUrlOf(req), heartbeat));
  },
  delete: async (req) => {
    const { deleteIntegration } = await loadIntegrationsDeleteIntegration();
    await deleteIntegration(req.principal, req.params.id);
    return noContent();
  },
  earlierList: async (req) => {
    const [{ listIntegrationsEarlier }] = await reads();
    return ok(await listIntegrationsEarlier(req.principal, req.query, baseUrlOf(req)));
  },
  earlierCreate: async (req) => {
    const [{ createIntegrationEarlier }, [, { integrationToEarlier }]] = await creation();
    const { record, heartbeat } = await withHeartbeat(await createIntegrationEarlier(req.principal, req.body()));
    return created(integrationToEarlier(record, baseUrlOf(req), heartbeat));
  },
  // Without credentials (the route's are optional) this is a heartbeat's inbound address: a beat.
  earlierGet: async (req) => {
    if (!carriesCredentials(req.headers)) {
      const [{ receiveBeatById }, { inboundRequest }] = await Promise.all([loadIngestReceiveBeat(), loadIngestInboundRequest()]);
      return accepted(await receiveBeatById({ rawId: req.params.id, ...inboundRequest(req) }, 'GET'));
    }
    const [{ findIntegration }, { integrationToEarlier }] = await reads();
    const { record, heartbeat } = await withHeartbeat(await findIntegration(req.principal, req.params.id));
    return ok(integrationToEarlier(record, baseUrlOf(req), heartbeat));
  },
  earlierUpdate: async (req) => {
    const [{ updateIntegrationEarlier }, [, { integrationToEarlier }]] = await updates();
    const { record, heartbeat } = await withHeartbeat(await updateIntegrationEarlier(req.principal, req.params.id, req.body()));
    return ok(integrationToEarlier(record, baseUrlOf(req), heartbeat));
  },
  earlierDelete: async (req) => {
    const { deleteIntegration } = await loadIntegrationsDeleteIntegration();
    await deleteIntegration(req.principal, req.params.id);
    return noContent();
  },
  listTypes: async (req) => {
    const [{ listTypes }] = await reads();
    return ok(await listTypes(req.query));
  },
  getType: async (req) => {
    const [{ findType }, { integrationTypeToV4 }] = await reads();
    return ok(integrationTypeToV4(findType(req.params.id)));
  },
});
