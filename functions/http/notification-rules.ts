// Entry point: notification rules (/api/v4/notification_rules); the earlier interface reaches the
// same objects through /router (type notification).
import { notificationRuleRoutes } from '../../lib/notification-rules/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { createNotificationRule } from '../../lib/notification-rules/create-notification-rule';
import { deleteNotificationRule } from '../../lib/notification-rules/delete-notification-rule';
import { findNotificationRule, listNotificationRules } from '../../lib/notification-rules/read-notification-rules';
import { notificationRuleToV4 } from '../../lib/notification-rules/represent';
import { testNotificationRule } from '../../lib/notification-rules/test-notification-rule';
import { updateNotificationRule } from '../../lib/notification-rules/update-notification-rule';

export const handler = httpHandler(notificationRuleRoutes, {
  list: async (req) => ok(await listNotificationRules(req.principal, req.query)),
  create: async (req) => created(notificationRuleToV4(await createNotificationRule(req.principal, req.body()))),
  get: async (req) => ok(notificationRuleToV4(await findNotificationRule(req.principal, req.params.id))),
  update: async (req) => ok(notificationRuleToV4(await updateNotificationRule(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteNotificationRule(req.principal, req.params.id);
    return noContent();
  },
  test: async (req) => ok(await testNotificationRule(req.principal, req.params.id, req.body())),
});
