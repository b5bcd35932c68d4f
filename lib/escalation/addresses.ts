// Where a person's notification on a channel goes (docs/api.md#escalation-and-notifications): e-mail to the primary address, SMS
// and voice to the primary phone (a blocked number is skipped), push to the account user (their
// subscriptions are the provider's), Slack to their Slack user id. No address: the notification is
// recorded failed.
import type { AccountUserRecord } from '../account-users/records';

export function addressOf(accountUser: AccountUserRecord, channel: string): { to: string; undeliverable: string | null } {
  const user = accountUser.user;
  if (channel === 'email') {
    const email = user.emails.find((e) => e.primary)?.email ?? user.emails[0]?.email;
    return email ? { to: email, undeliverable: null } : { to: '', undeliverable: 'the person has no e-mail address' };
  }
  if (channel === 'sms' || channel === 'voice') {
    const phone = user.phones.find((p) => p.primary && !p.blocked) ?? user.phones.find((p) => !p.blocked);
    return phone ? { to: phone.phone, undeliverable: null } : { to: '', undeliverable: 'the person has no phone number' };
  }
  if (channel === 'slack') {
    // Without a lookup: lib/account-users/slack-address.ts asks Slack for a person who has no id yet.
    return accountUser.slack_user_id
      ? { to: accountUser.slack_user_id, undeliverable: null }
      : { to: '', undeliverable: 'the person has no slack_user_id' };
  }
  return { to: `acu_${accountUser.id}`, undeliverable: null };
}
