// Entry point: broadcasts (/api/v4/broadcasts and their respond action).
import { broadcastRoutes } from '../../lib/broadcasts/routes';
import { httpHandler } from '../../lib/api/handler';
import { findBroadcast, listBroadcasts } from '../../lib/broadcasts/read-broadcasts';
import { broadcastToV4 } from '../../lib/broadcasts/represent';
import { created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';

// An answer may run the broadcast's next step (its deliveries: the notification rules, the content,
// the providers): loaded with the first answer, not by the reads and writes of broadcasts. The
// writes, which set and clear the broadcast's timers (the SQS client), load with their first request:
// a read loads neither.
const loadRespond = /* @__PURE__ */ loadOnce(() => import('../../lib/broadcasts/respond-broadcast'));
const loadCreate = /* @__PURE__ */ loadOnce(() => import('../../lib/broadcasts/create-broadcast'));
const loadUpdate = /* @__PURE__ */ loadOnce(() => import('../../lib/broadcasts/update-broadcast'));
const loadDelete = /* @__PURE__ */ loadOnce(() => import('../../lib/broadcasts/delete-broadcast'));

export const handler = httpHandler(broadcastRoutes, {
  list: async (req) => ok(await listBroadcasts(req.principal, req.query, req.iface)),
  create: async (req) => {
    const { createBroadcast } = await loadCreate();
    return created(broadcastToV4(await createBroadcast(req.principal, req.body())));
  },
  get: async (req) => ok(broadcastToV4(await findBroadcast(req.principal, req.params.id))),
  update: async (req) => {
    const { updateBroadcast } = await loadUpdate();
    return ok(broadcastToV4(await updateBroadcast(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const { deleteBroadcast } = await loadDelete();
    await deleteBroadcast(req.principal, req.params.id);
    return noContent();
  },
  respond: async (req) => {
    const { respondToBroadcast } = await loadRespond();
    return ok(broadcastToV4(await respondToBroadcast(req.principal, req.params.id, req.body())));
  },
});
