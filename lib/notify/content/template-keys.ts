// What an account's notification_templates may hold (api-earlier.md "Account"): one entry per
// template key, each with per-channel texts: push and email (subject, message), sms and voice
// (message). Templates are Handlebars over the placeholders of docs/api.md#escalation-and-notifications.

export const TEMPLATE_KEYS = [
  'alert_acknowledged',
  'alert_alert',
  'alert_broadcast',
  'alert_dropped',
  'alert_handoff',
  'alert_page',
  'alert_rejected',
  'alert_stakeholder',
  'alert_timeout',
  'event_goc',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

export const CHANNELS = ['push', 'email', 'sms', 'voice'] as const;
export type ContentChannel = (typeof CHANNELS)[number];

export const CHANNEL_FIELDS: Record<ContentChannel, readonly ('subject' | 'message')[]> = {
  push: ['subject', 'message'],
  email: ['subject', 'message'],
  sms: ['message'],
  voice: ['message'],
};

export interface ChannelTemplate {
  subject?: string | null;
  message?: string | null;
}

export type NotificationTemplates = Partial<Record<TemplateKey, Partial<Record<ContentChannel, ChannelTemplate | null>> | null>>;

/** Longest template text accepted (characters). */
export const MAX_TEMPLATE_LENGTH = 4_000;

/** Longest rendered text per channel and field (characters); longer output is cut. */
export const MAX_OUTPUT = {
  subject: 200,
  push: 1_000,
  email: 20_000,
  sms: 1_600,
  voice: 3_000,
} as const;

/** Longest alert text passed to a template (a third party chooses it). */
export const MAX_FIELD = { title: 1_000, description: 8_000, name: 200 } as const;

export function isTemplateKey(value: string): value is TemplateKey {
  return (TEMPLATE_KEYS as readonly string[]).includes(value);
}

export function isContentChannel(value: string): value is ContentChannel {
  return (CHANNELS as readonly string[]).includes(value);
}
