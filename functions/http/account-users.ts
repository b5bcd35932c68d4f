// Entry point: account users (/api/v4/account_users), their own password changes, test notifications
// and their browsers' push subscriptions (with /api/v4/web_push, the VAPID public key a console subscribes with).
// Each kind of route loads its use case with its first request (a chunk of its own in the deployed
// bundle): a cold start that reads account users does not load the writes' phone and address
// checks, a test notification's sending or the push subscriptions' code (issue 21).
import { accountUserRoutes } from '../../lib/account-users/routes';
import { httpHandler } from '../../lib/api/handler';
import { accepted, created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';

const loadAccountUsersReadAccountUsers = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/read-account-users'));
const loadAccountUsersCreateAccountUser = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/create-account-user'));
const loadAccountUsersUpdateAccountUser = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/update-account-user'));
const loadAccountUsersDeleteAccountUser = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/delete-account-user'));
const loadAccountUsersChangePassword = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/change-password'));
const loadAccountUsersSendTestNotification = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/send-test-notification'));
const loadNotifyRepresent = /* @__PURE__ */ loadOnce(() => import('../../lib/notify/represent'));

const represent = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/represent'));
const push = /* @__PURE__ */ loadOnce(() => import('../../lib/account-users/push-subscriptions'));

export const handler = httpHandler(accountUserRoutes, {
  list: async (req) => {
    const { listAccountUsers } = await loadAccountUsersReadAccountUsers();
    return ok(await listAccountUsers(req.principal, req.query, req.iface));
  },
  create: async (req) => {
    const [{ createAccountUser }, { accountUserToV4 }] = await Promise.all([loadAccountUsersCreateAccountUser(), represent()]);
    return created(accountUserToV4(await createAccountUser(req.principal, req.body())));
  },
  get: async (req) => {
    const [{ findAccountUser }, { accountUserToV4 }] = await Promise.all([loadAccountUsersReadAccountUsers(), represent()]);
    return ok(accountUserToV4(await findAccountUser(req.principal, req.params.id)));
  },
  update: async (req) => {
    const [{ updateAccountUser }, { accountUserToV4 }] = await Promise.all([loadAccountUsersUpdateAccountUser(), represent()]);
    return ok(accountUserToV4(await updateAccountUser(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const { deleteAccountUser } = await loadAccountUsersDeleteAccountUser();
    await deleteAccountUser(req.principal, req.params.id);
    return noContent();
  },
  changePassword: async (req) => {
    const { changePassword } = await loadAccountUsersChangePassword();
    await changePassword(req.principal, req.params.id, req.body());
    return noContent();
  },
  sendTestNotification: async (req) => {
    const [{ sendTestNotification }, { notificationToV4 }] = await Promise.all([
      loadAccountUsersSendTestNotification(),
      loadNotifyRepresent(),
    ]);
    return accepted(notificationToV4(await sendTestNotification(req.principal, req.params.id, req.body())));
  },
  listPushSubscriptions: async (req) => {
    const { listPushSubscriptionsOf } = await push();
    return ok(await listPushSubscriptionsOf(req.principal, req.params.id));
  },
  createPushSubscription: async (req) => {
    const { createPushSubscription, pushSubscriptionToV4 } = await push();
    return created(pushSubscriptionToV4(await createPushSubscription(req.principal, req.params.id, req.body())));
  },
  deletePushSubscriptionByEndpoint: async (req) => {
    const { deletePushSubscriptionByEndpoint } = await push();
    await deletePushSubscriptionByEndpoint(req.principal, req.params.id, req.query);
    return noContent();
  },
  deletePushSubscription: async (req) => {
    const { deletePushSubscription } = await push();
    await deletePushSubscription(req.principal, req.params.id, req.params.subscriptionId);
    return noContent();
  },
  webPush: async () => {
    const { readWebPush } = await push();
    return ok(await readWebPush());
  },
});
