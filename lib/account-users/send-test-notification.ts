// POST /api/v4/account_users/:id/test_notification {channel} (docs/api.md#test-notifications): a
// message with template `test` on that channel to that person's address, through the channel's
// provider, so a person can check that their phone rings before it has to. By that account user or
// an admin (anyone else: 403; another account's user: 404). A channel the person has no address for
// (no phone for sms or voice, no browser registered for Web Push, nobody in the connected Slack
// workspace) is a 422 naming `channel`. Test
// messages cost money and land on someone's phone: a few per person and channel per window (429 beyond).
import { takeAttempt } from '../auth/attempt-limit';
import { Forbidden, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { webPushEnabled } from '../notify/providers/web-push';
import { listPushSubscriptions } from '../notify/push-subscription-store';
import type { Channel, NotificationRecord } from '../notify/records';
import { sendNotification } from '../notify/send';
import { addressOf } from './addresses';
import { slackAddressOf } from './slack-address';
import type { AccountUserRecord } from './records';
import { findAccountUser } from './read-account-users';
import { testNotificationInput } from './schemas';

const TESTS_PER_WINDOW = 5;
const WINDOW_SECONDS = 10 * 60;

const CHANNEL_NAME: Record<Channel, string> = {
  push: 'push notifications',
  email: 'e-mail',
  sms: 'text messages',
  voice: 'phone calls',
  slack: 'Slack messages',
};

/** The person's address on the channel (Slack: looked up by e-mail when they have no slack_user_id), or why there is none. */
async function addressOn(accountUser: AccountUserRecord, channel: Channel): Promise<{ to: string; undeliverable: string | null }> {
  const address = channel === 'slack' ? await slackAddressOf(accountUser) : addressOf(accountUser, channel);
  if (address.undeliverable) return address;
  if (channel === 'push' && webPushEnabled() && (await listPushSubscriptions(accountUser.account_id, accountUser.id)).length === 0) {
    return {
      to: '',
      undeliverable: 'the person has no browser registered for push notifications (Profile → Enable notifications on this device)',
    };
  }
  return address;
}

export async function sendTestNotification(principal: Principal, rawId: string, body: unknown): Promise<NotificationRecord> {
  const target = await findAccountUser(principal, rawId);
  if (target.id !== principal.accountUserId && !principal.roles.admin) {
    throw new Forbidden('Only the account user themselves or an admin may send them a test notification');
  }
  const { channel } = parseInput(testNotificationInput, body);
  const address = await addressOn(target, channel);
  if (address.undeliverable) throw new Invalid(`channel ${channel} cannot reach this person: ${address.undeliverable}`);
  await takeAttempt([
    {
      bucket: `test-notification:${target.account_id}:${target.id}:${channel}`,
      limit: TESTS_PER_WINDOW,
      windowSeconds: WINDOW_SECONDS,
      message: `Too many test notifications on ${channel} for this person; try again later`,
    },
  ]);
  const text = `This is a test notification for ${target.user.name}. If you received it, your ${CHANNEL_NAME[channel]} from the on-call service work.`;
  return sendNotification({
    accountId: target.account_id,
    accountUserId: target.id,
    userId: target.user_id,
    channel,
    to: address.to,
    template: 'test',
    subject: 'Test notification',
    message: text,
  });
}
