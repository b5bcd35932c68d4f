// The stored team (api-v4.md "Team"). Member and admin lists are also edited from the account-user
// side (lib/teams/membership.ts), always through versioned writes.
import type { ChatWebhook } from '../chat-cards/platforms';
import type { Entity } from '../store/entity-store';

export const NOTIFICATION_TARGETS = ['none', 'team_all', 'team_admins', 'oncall_rotation', 'specific_users'] as const;
export type NotificationTarget = (typeof NOTIFICATION_TARGETS)[number];

export interface Attachment {
  filename: string;
  url: string;
}

export interface TeamRecord extends Entity {
  tiny_id: number;
  name: string;
  schedule_id: string | null;
  escalation_policy_id: string | null;
  member_account_user_ids: string[];
  admin_account_user_ids: string[];
  drop_notifications: NotificationTarget;
  handoff_notifications: NotificationTarget;
  drop_notification_account_user_ids: string[];
  handoff_notification_account_user_ids: string[];
  notes: string;
  attachments: Record<string, Attachment> | Attachment[];
  /** Incoming webhooks of chats that get a card for each alert assigned to the team (absent on older teams: none). */
  chat_webhooks?: ChatWebhook[];
  meta: Record<string, unknown>;
  /** The Slack channel (`C…`) every alert assigned to the team is posted in (docs/api.md#slack); absent on teams stored before it. */
  slack_channel_id?: string | null;
  created_at: string;
  updated_at: string;
}

/** A team's chat webhooks (none when it has none): here, not with their checks on save
 * (./chat-webhooks.ts), so the deliveries' worker does not load the teams' input schemas. */
export const chatWebhooksOf = (team: Pick<TeamRecord, 'chat_webhooks'>): ChatWebhook[] => team.chat_webhooks ?? [];
