// A person's default channels (docs/api.md#escalation-and-notifications): notify_push → push,
// notify_email → email, notify_sms → sms, notify_voice → voice, notify_slack → slack. Apart from
// pick-channels.ts, which also evaluates notification rules (their parser and query language), so
// that a page that names no rule loads none of that (test/infra/bundles.test.ts).
import type { Channel } from './notification-rules';

export interface UserChannelDefaults {
  notify_push?: boolean | null;
  notify_email?: boolean | null;
  notify_sms?: boolean | null;
  notify_voice?: boolean | null;
  notify_slack?: boolean | null;
}

export function defaultChannels(defaults: UserChannelDefaults): Channel[] {
  const channels: Channel[] = [];
  if (defaults.notify_push) channels.push('push');
  if (defaults.notify_email) channels.push('email');
  if (defaults.notify_sms) channels.push('sms');
  if (defaults.notify_voice) channels.push('voice');
  if (defaults.notify_slack) channels.push('slack');
  return channels;
}
