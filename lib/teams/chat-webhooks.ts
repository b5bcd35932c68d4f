// A team's chat webhooks on save (docs/api.md#chat-webhooks): the list checked as it will be stored,
// and the team's place among the account's alert event subscribers (a team with at least one chat
// webhook subscribes to the chat events; lib/outgoing-webhooks posts its cards and follow-ups).
import { setAlertEventSubscriber } from '../alert-subscribers/subscribers';
import { CHAT_EVENTS } from '../chat-cards/platforms';
import { chatWebhookFaults } from '../chat-cards/webhook-urls';
import { config } from '../config';
import { prefixId } from '../ids';
import { chatWebhooksOf, type TeamRecord } from './records';
import { chatWebhooksInput } from './schemas';

/** parseInput's check of a raw body: the outbound guard on the URLs (the schema reports a list of the wrong shape). */
export function chatWebhookBodyFaults(body: Record<string, unknown>): string[] {
  const parsed = chatWebhooksInput.safeParse(body.chat_webhooks);
  return parsed.success ? chatWebhookFaults(parsed.data, config().ALLOW_PRIVATE_AUTOMATION_TARGETS) : [];
}

/** Keeps the team's alert event subscription in step with its chat webhooks (after: null when deleted). */
export async function syncChatSubscription(before: TeamRecord | null, after: TeamRecord | null): Promise<void> {
  const had = before ? chatWebhooksOf(before).length > 0 : false;
  const has = after ? chatWebhooksOf(after).length > 0 : false;
  const team = after ?? before;
  if (!team || (!had && !has)) return;
  await setAlertEventSubscriber(team.account_id, prefixId('team', team.id), has ? CHAT_EVENTS : null);
}
