// The routes of the `notificationRules` function (functions/http/notification-rules.ts) and their dry run.
import { declareRoutes } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import {
  createNotificationRuleInput,
  NotificationRuleExplanation,
  notificationRuleTestInput,
  NotificationRuleV4,
  updateNotificationRuleInput,
} from './schemas';

const v4 = '/api/v4';

export const notificationRuleRoutes = declareRoutes('notificationRules', {
  ...standardRoutes(`${v4}/notification_rules`, {
    tag: 'Notification rules',
    noun: 'notification rule',
    plural: 'notification rules',
    item: NotificationRuleV4,
    create: createNotificationRuleInput,
    update: updateNotificationRuleInput,
    form: true,
    writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
    descriptions: {
      create:
        "rules is notification rule YAML (docs/api.md#escalation-and-notifications), validated and stored exactly as sent. Assign it through an account user's notification_rule_id.",
      delete: 'Account users that used it lose their pointer (notification_rule_id becomes null): their default channels apply.',
    },
  }),
  test: {
    method: 'POST',
    path: `${v4}/notification_rules/{id}/test`,
    summary: 'Dry-run a notification rule',
    description:
      "Which channels a page for the given alert would use, and when, with the reasons: the rule that matched and each condition, the rules tried before it. The default channels are the caller's, or those of account_user_id; type is the event (default alert.open). No side effects.",
    tag: 'Notification rules',
    body: notificationRuleTestInput,
    form: false,
    success: [{ status: 200, description: 'The explanation', schema: NotificationRuleExplanation }],
    errors: [400, 401, 404, 413, 'invalid'],
  },
});
