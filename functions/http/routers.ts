// Entry point: routers (/api/v4/routers, the earlier /router with its two types, and the default
// templates).
// Each kind of route loads its use case with its first request (a chunk of its own in the deployed
// bundle): a cold start that reads routers does not load the writes' checks, a test's rule
// evaluation or the earlier interface's two types (issue 21).
import { routerRoutes } from '../../lib/routers/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';

const represent = () => import('../../lib/routers/represent');
const reads = () => import('../../lib/routers/read-routers');
const earlier = () => import('../../lib/routers/earlier-routers');

export const handler = httpHandler(routerRoutes, {
  list: async (req) => {
    const { listRouters } = await reads();
    return ok(await listRouters(req.principal, req.query));
  },
  create: async (req) => {
    const [{ createRouterV4 }, { routerToV4 }] = await Promise.all([import('../../lib/routers/create-router'), represent()]);
    return created(routerToV4(await createRouterV4(req.principal, req.body())));
  },
  get: async (req) => {
    const [{ findRouter }, { routerToV4 }] = await Promise.all([reads(), represent()]);
    return ok(routerToV4(await findRouter(req.principal, req.params.id)));
  },
  update: async (req) => {
    const [{ updateRouterV4 }, { routerToV4 }] = await Promise.all([import('../../lib/routers/update-router'), represent()]);
    return ok(routerToV4(await updateRouterV4(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const { deleteRouter } = await import('../../lib/routers/delete-router');
    await deleteRouter(req.principal, req.params.id);
    return noContent();
  },
  test: async (req) => {
    const { testRouter } = await import('../../lib/routers/test-router');
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
    const { defaultTemplate } = await import('../../lib/routers/default-template');
    return ok(defaultTemplate(req.params.type));
  },
});
