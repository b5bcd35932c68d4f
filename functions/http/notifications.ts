// Entry point: notifications on both interfaces (/api/v4/notifications, /notification), read only.
import { routesOf } from '../../infra/routes';
import { httpHandler } from '../../lib/api/handler';
import { ok } from '../../lib/http/replies';
import { findNotification, listNotifications } from '../../lib/notify/read-notifications';
import { notificationToEarlier, notificationToV4 } from '../../lib/notify/represent';

export const handler = httpHandler(routesOf('notifications'), {
  list: async (req) => ok(await listNotifications(req.principal, req.query, 'v4')),
  get: async (req) => ok(notificationToV4(await findNotification(req.principal, req.params.id))),
  earlierList: async (req) => ok(await listNotifications(req.principal, req.query, 'earlier')),
  earlierGet: async (req) => ok(notificationToEarlier(await findNotification(req.principal, req.params.id))),
});
