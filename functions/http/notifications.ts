// Entry point: notifications on both interfaces (/api/v4/notifications, /notification), read only.
import { notificationRoutes } from '../../lib/notify/routes';
import { httpHandler } from '../../lib/api/handler';
import { ok } from '../../lib/http/replies';
import { findNotification, listNotificationsEarlier, listNotificationsV4 } from '../../lib/notify/read-notifications';
import { notificationToEarlier, notificationToV4 } from '../../lib/notify/represent';

export const handler = httpHandler(notificationRoutes, {
  list: async (req) => ok(await listNotificationsV4(req.principal, req.query)),
  get: async (req) => ok(notificationToV4(await findNotification(req.principal, req.params.id))),
  earlierList: async (req) => ok(await listNotificationsEarlier(req.principal, req.query)),
  earlierGet: async (req) => ok(notificationToEarlier(await findNotification(req.principal, req.params.id))),
});
