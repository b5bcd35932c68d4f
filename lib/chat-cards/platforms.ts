// The chats a team can post alert cards to through their incoming webhooks (docs/api.md#chat-webhooks),
// and the alert events a team with chat webhooks subscribes to. Pure: no I/O.

export const CHAT_WEBHOOK_TYPES = ['slack', 'msteams', 'mattermost', 'google_chat', 'discord'] as const;
export type ChatWebhookType = (typeof CHAT_WEBHOOK_TYPES)[number];

export interface ChatWebhook {
  type: ChatWebhookType;
  url: string;
}

/** A few channels per team is the use; more would multiply every change of every alert. */
export const MAX_CHAT_WEBHOOKS = 10;
export const MAX_CHAT_WEBHOOK_URL = 2048;

export const CHAT_PLATFORM_NAMES: Record<ChatWebhookType, string> = {
  slack: 'Slack',
  msteams: 'Microsoft Teams',
  mattermost: 'Mattermost',
  google_chat: 'Google Chat',
  discord: 'Discord',
};

/**
 * What a team with chat webhooks hears of (lib/alerts/alert-events.ts names them): the changes that
 * assign an alert to it (a card) and the status changes after that (a follow-up line).
 */
export const CHAT_EVENTS = [
  'alert.open',
  'alert.assigned',
  'alert.acknowledged',
  'alert.rejected',
  'alert.resolved',
  'alert.dropped',
  'alert.handoff',
  'alert.reassigned',
  'alert.archived',
] as const;
