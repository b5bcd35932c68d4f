// Entry point: notification rules (/api/v4/notification_rules); the earlier interface reaches the
// same objects through /router (type notification).
// Each kind of route loads its use case with its first request (a chunk of its own in the deployed
// bundle): a cold start that reads rules does not load the writes' YAML checks or a test's rule
// evaluation (issue 21).
import { notificationRuleRoutes } from '../../lib/notification-rules/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';

const loadNotificationRulesCreateNotificationRule = /* @__PURE__ */ loadOnce(
  () => import('../../lib/notification-rules/create-notification-rule'),
);
const loadNotificationRulesUpdateNotificationRule = /* @__PURE__ */ loadOnce(
  () => import('../../lib/notification-rules/update-notification-rule'),
);
const loadNotificationRulesDeleteNotificationRule = /* @__PURE__ */ loadOnce(
  () => import('../../lib/notification-rules/delete-notification-rule'),
);
const loadNotificationRulesTestNotificationRule = /* @__PURE__ */ loadOnce(
  () => import('../../lib/notification-rules/test-notification-rule'),
);

const represent = /* @__PURE__ */ loadOnce(() => import('../../lib/notification-rules/represent'));
const reads = /* @__PURE__ */ loadOnce(() => import('../../lib/notification-rules/read-notification-rules'));

export const handler = httpHandler(notificationRuleRoutes, {
  list: async (req) => {
    const { listNotificationRules } = await reads();
    return ok(await listNotificationRules(req.principal, req.query));
  },
  create: async (req) => {
    const [{ createNotificationRule }, { notificationRuleToV4 }] = await Promise.all([
      loadNotificationRulesCreateNotificationRule(),
      represent(),
    ]);
    return created(notificationRuleToV4(await createNotificationRule(req.principal, req.body())));
  },
  get: async (req) => {
    const [{ findNotificationRule }, { notificationRuleToV4 }] = await Promise.all([reads(), represent()]);
    return ok(notificationRuleToV4(await findNotificationRule(req.principal, req.params.id)));
  },
  update: async (req) => {
    const [{ updateNotificationRule }, { notificationRuleToV4 }] = await Promise.all([
      loadNotificationRulesUpdateNotificationRule(),
      represent(),
    ]);
    return ok(notificationRuleToV4(await updateNotificationRule(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const { deleteNotificationRule } = await loadNotificationRulesDeleteNotificationRule();
    await deleteNotificationRule(req.principal, req.params.id);
    return noContent();
  },
  test: async (req) => {
    const { testNotificationRule } = await loadNotificationRulesTestNotificationRule();
    return ok(await testNotificationRule(req.principal, req.params.id, req.body()));
  },
});
