// Entry point: routers (/api/v4/routers, the earlier /router with its two types, and the default
// templates).
// Each kind of route loads its use case with its first request (a chunk of its own in the deployed
// bundle): a cold start that reads routers does not load the writes' checks, a test's rule
// evaluation or the earlier interface's two types (issue 21).
import { routerRoutes } from '../../lib/routers/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';

const loadRoutersCreateRouter = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/create-router'));
const loadRoutersUpdateRouter = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/update-router'));
const loadRoutersDeleteRouter = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/delete-router'));
const loadRoutersTestRouter = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/test-router'));
const loadRoutersDefaultTemplate = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/default-template'));

const represent = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/represent'));
const reads = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/read-routers'));
const earlier = /* @__PURE__ */ loadOnce(() => import('../../lib/routers/earlier-routers'));

export const handler = httpHandler(routerRoutes, {
  list: async (req) => {
    const { listRouters } = await reads();
    return ok(await listRouters(req.principal, req.query));
  },
  create: async (req) => {
    const [{ createRouterV4 }, { routerToV4 }] = await Promise.all([loadRoutersCreateRouter(), represent()]);
    return created(routerToV4(await createRouterV4(req.principal, req.body())));
  },
  get: async (req) => {
    const [{ findRouter }, { routerToV4 }] = await Promise.all([reads(), represent()]);
    return ok(routerToV4(await findRouter(req.principal, req.params.id)));
  },
  update: async (req) => {
    const [{ updateRouterV4 }, { routerToV4 }] = await Promise.all([loadRoutersUpdateRouter(), represent()]);
    return ok(routerToV4(await updateRouterV4(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const { deleteRouter } = await loadRoutersDeleteRouter();
    await deleteRouter(req.principal, req.params.id);
    return noContent();
  },
  test: async (req) => {
    const { testRouter } = await loadRoutersTestRouter();
    return ok(await testRouter(req.principal, req.params.id, req.body()));
  },
  earlierList: async (req) => {
    const { listRoutersEarlier } = await earlier();
    return ok(await listRoutersEarlier(req.principal, req.query));
  },
  earlierCreate: async (req) => {
    const { createRouterEarlier, earlierRouterToEarlier } = await earlier();
    return created(earlierRouterToEarlier(await createRouterEarlier(req.principal, req.body())));
  },
  earlierGet: async (req) => {
    const { findEarlierRouter, earlierRouterToEarlier } = await earlier();
    return ok(earlierRouterToEarlier(await findEarlierRouter(req.principal, req.params.id)));
  },
  earlierUpdate: async (req) => {
    const { updateRouterEarlier, earlierRouterToEarlier } = await earlier();
    return ok(earlierRouterToEarlier(await updateRouterEarlier(req.principal, req.params.id, req.body())));
  },
  earlierDelete: async (req) => {
    const { deleteRouterEarlier } = await earlier();
    await deleteRouterEarlier(req.principal, req.params.id);
    return noContent();
  },
  defaultTemplate: async (req) => {
    const { defaultTemplate } = await loadRoutersDefaultTemplate();
    return ok(defaultTemplate(req.params.type));
  },
});
