// Entry point: account users (/api/v4/account_users), their own password changes, test notifications
// and their browsers' push subscriptions (with /api/v4/web_push, the VAPID public key a console subscribes with).
import { accountUserRoutes } from '../../lib/account-users/routes';
import { changePassword } from '../../lib/account-users/change-password';
import { createAccountUser } from '../../lib/account-users/create-account-user';
import { deleteAccountUser } from '../../lib/account-users/delete-account-user';
import {
  createPushSubscription,
  deletePushSubscription,
  deletePushSubscriptionByEndpoint,
  listPushSubscriptionsOf,
  pushSubscriptionToV4,
  readWebPush,
} from '../../lib/account-users/push-subscriptions';
import { findAccountUser, listAccountUsers } from '../../lib/account-users/read-account-users';
import { accountUserToV4 } from '../../lib/account-users/represent';
import { sendTestNotification } from '../../lib/account-users/send-test-notification';
import { updateAccountUser } from '../../lib/account-users/update-account-user';
import { httpHandler } from '../../lib/api/handler';
import { accepted, created, noContent, ok } from '../../lib/http/replies';
import { notificationToV4 } from '../../lib/notify/represent';

export const handler = httpHandler(accountUserRoutes, {
  list: async (req) => ok(await listAccountUsers(req.principal, req.query, req.iface)),
  create: async (req) => created(accountUserToV4(await createAccountUser(req.principal, req.body()))),
  get: async (req) => ok(accountUserToV4(await findAccountUser(req.principal, req.params.id))),
  update: async (req) => ok(accountUserToV4(await updateAccountUser(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteAccountUser(req.principal, req.params.id);
    return noContent();
  },
  changePassword: async (req) => {
    await changePassword(req.principal, req.params.id, req.body());
    return noContent();
  },
  sendTestNotification: async (req) => accepted(notificationToV4(await sendTestNotification(req.principal, req.params.id, req.body()))),
  listPushSubscriptions: async (req) => ok(await listPushSubscriptionsOf(req.principal, req.params.id)),
  createPushSubscription: async (req) =>
    created(pushSubscriptionToV4(await createPushSubscription(req.principal, req.params.id, req.body()))),
  deletePushSubscriptionByEndpoint: async (req) => {
    await deletePushSubscriptionByEndpoint(req.principal, req.params.id, req.query);
    return noContent();
  },
  deletePushSubscription: async (req) => {
    await deletePushSubscription(req.principal, req.params.id, req.params.subscriptionId);
    return noContent();
  },
  webPush: async () => ok(await readWebPush()),
});
