// Entry point: routers (/api/v4/routers, the earlier /router with its two types, and the default
// templates).
import { routerRoutes } from '../../lib/routers/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { createRouterV4 } from '../../lib/routers/create-router';
import { defaultTemplate } from '../../lib/routers/default-template';
import { deleteRouter } from '../../lib/routers/delete-router';
import {
  createRouterEarlier,
  deleteRouterEarlier,
  earlierRouterToEarlier,
  findEarlierRouter,
  listRoutersEarlier,
  updateRouterEarlier,
} from '../../lib/routers/earlier-routers';
import { findRouter, listRouters } from '../../lib/routers/read-routers';
import { routerToV4 } from '../../lib/routers/represent';
import { testRouter } from '../../lib/routers/test-router';
import { updateRouterV4 } from '../../lib/routers/update-router';

export const handler = httpHandler(routerRoutes, {
  list: async (req) => ok(await listRouters(req.principal, req.query)),
  create: async (req) => created(routerToV4(await createRouterV4(req.principal, req.body()))),
  get: async (req) => ok(routerToV4(await findRouter(req.principal, req.params.id))),
  update: async (req) => ok(routerToV4(await updateRouterV4(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteRouter(req.principal, req.params.id);
    return noContent();
  },
  test: async (req) => ok(await testRouter(req.principal, req.params.id, req.body())),
  earlierList: async (req) => ok(await listRoutersEarlier(req.principal, req.query)),
  earlierCreate: async (req) => created(earlierRouterToEarlier(await createRouterEarlier(req.principal, req.body()))),
  earlierGet: async (req) => ok(earlierRouterToEarlier(await findEarlierRouter(req.principal, req.params.id))),
  earlierUpdate: async (req) => ok(earlierRouterToEarlier(await updateRouterEarlier(req.principal, req.params.id, req.body()))),
  earlierDelete: async (req) => {
    await deleteRouterEarlier(req.principal, req.params.id);
    return noContent();
  },
  defaultTemplate: (req) => ok(defaultTemplate(req.params.type)),
});
