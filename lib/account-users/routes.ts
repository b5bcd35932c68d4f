// The routes of the `accountUsers` function (functions/http/account-users.ts): account users, their
// own password changes, test notifications and their browsers' push subscriptions, and the VAPID key
// browsers subscribe with.
import { declareRoutes } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { pushSubscriptionInput, PushSubscriptionListV4, PushSubscriptionV4, WebPushV4 } from './push-subscription-schemas';
import { NotificationV4 } from '../notify/schemas';
import { AccountUserV4, changePasswordInput, createAccountUserInput, testNotificationInput, updateAccountUserInput } from './schemas';

const v4 = '/api/v4';

export const accountUserRoutes = declareRoutes('accountUsers', {
  ...standardRoutes(`${v4}/account_users`, {
    tag: 'Account users',
    noun: 'account user',
    plural: 'account users',
    item: AccountUserV4,
    create: createAccountUserInput,
    update: updateAccountUserInput,
    form: true,
    writers: {
      create: ADMIN_ONLY,
      update: 'Admins may update anyone; others only themselves, and never roles or team memberships (403).',
      delete: ADMIN_ONLY,
    },
    extra: { create: [409], update: [409] },
    descriptions: {
      create:
        'A new person gets a generated password through the outbox only. An e-mail address already in the account is a 409. team_ids is another name for member_team_ids.',
      update:
        'roles merges the keys given; user_attributes updates name, notify flags, and e-mails/phones by id (_destroy removes one, an entry without id adds one).',
    },
  }),
  changePassword: {
    method: 'POST',
    path: `${v4}/account_users/{id}/password`,
    summary: 'Change your own password',
    description:
      "Only by the account user themselves (anyone else, an admin included, gets 403). A wrong current_password is a 422 naming it; a password shorter than 8 characters a 422 naming password. Login tokens issued before the change are refused from then on (401), the caller's included; API keys keep working. Attempts are limited per person (429 with Retry-After).",
    tag: 'Account users',
    body: changePasswordInput,
    success: [{ status: 204, description: 'The password is changed; sign in again for a new login token' }],
    errors: [400, 401, 403, 404, 409, 413, 429, 'invalid'],
  },
  sendTestNotification: {
    method: 'POST',
    path: `${v4}/account_users/{id}/test_notification`,
    summary: 'Send a person a test notification',
    description:
      "A message with template test on the channel (push, email, sms, voice, slack) to the person's address for it, through the channel's provider, recorded as a notification like any other. By the person themself or an admin (403 otherwise). A channel the person cannot receive (no phone for sms or voice, no e-mail, no browser registered while Web Push is on, nobody to reach in a connected Slack) is a 422 naming channel; at most 5 per person and channel in 10 minutes (429). See docs/api.md#test-notifications.",
    tag: 'Account users',
    body: testNotificationInput,
    success: [
      {
        status: 202,
        description: 'The notification (sent, or failed with the reason in err on the earlier interface)',
        schema: NotificationV4,
      },
    ],
    errors: [400, 401, 403, 404, 413, 429, 'invalid'],
  },
  listPushSubscriptions: {
    method: 'GET',
    path: `${v4}/account_users/{id}/push_subscriptions`,
    summary: "A person's browser push subscriptions",
    description: 'By the person themself or an admin (403 otherwise); the keys are never shown. See docs/api.md#push-subscriptions.',
    tag: 'Account users',
    success: [{ status: 200, description: 'Every subscription of the person, oldest first', schema: PushSubscriptionListV4 }],
    errors: [401, 403, 404],
  },
  createPushSubscription: {
    method: 'POST',
    path: `${v4}/account_users/{id}/push_subscriptions`,
    summary: 'Register a browser for push notifications',
    description:
      "The body is what the browser's PushSubscription.toJSON() gives: endpoint (https), keys.p256dh (a P-256 public key) and keys.auth (16 bytes), base64url; each is checked (422 naming the field). The same endpoint again replaces the subscription; beyond 10 the oldest is forgotten. A push service that answers 404 or 410 removes it. By the person themself or an admin (403 otherwise). Subscribe with the key of GET /api/v4/web_push.",
    tag: 'Account users',
    body: pushSubscriptionInput,
    success: [{ status: 201, description: 'The subscription', schema: PushSubscriptionV4 }],
    errors: [400, 401, 403, 404, 413, 'invalid'],
  },
  deletePushSubscriptionByEndpoint: {
    method: 'DELETE',
    path: `${v4}/account_users/{id}/push_subscriptions`,
    summary: "Remove a browser's push subscription by its endpoint",
    description: 'The endpoint query parameter names it (422 when missing, 404 when the person has no such subscription).',
    tag: 'Account users',
    query: [{ name: 'endpoint', required: true, description: "The subscription's endpoint URL" }],
    success: [{ status: 204, description: 'Removed' }],
    errors: [401, 403, 404, 'invalid'],
  },
  deletePushSubscription: {
    method: 'DELETE',
    path: `${v4}/account_users/{id}/push_subscriptions/{subscriptionId}`,
    summary: 'Remove a push subscription by its id',
    tag: 'Account users',
    success: [{ status: 204, description: 'Removed' }],
    errors: [401, 403, 404],
  },
  webPush: {
    method: 'GET',
    path: `${v4}/web_push`,
    summary: 'The VAPID public key browsers subscribe with',
    description:
      'vapid_public_key is the applicationServerKey of PushManager.subscribe (base64url); enabled says whether pushes go out through Web Push (else the local outbox, or they are recorded failed).',
    tag: 'Account users',
    success: [{ status: 200, description: 'The key', schema: WebPushV4 }],
    errors: [401],
  },
});
