// What a team's chat webhooks receive (docs/api.md#chat-webhooks), in each chat's incoming-webhook
// format: a card when an alert is assigned to the team (title, urgency, status, team, a link to the
// alert in the console) and a one-line follow-up for each later change (tiny id, new status, who).
// - Microsoft Teams (a Workflows "when a Teams webhook request is received" flow): a message whose
//   attachment is an Adaptive Card 1.4;
// - Slack and Mattermost incoming webhooks: a legacy attachment (color bar, title, title_link, fields);
// - Google Chat: cardsV2 (header, a section of widgets, a button opening the console);
// - Discord: an embed (title, url, color, fields), mentions switched off.
// Text from the alert is escaped for each chat, so a title cannot mention a whole channel or forge a
// link. Pure: no I/O.
import type { ChatWebhookType } from './platforms';

export interface CardAlert {
  /** ULID (the console's address of the alert). */
  id: string;
  tiny_id: number;
  title: string;
  description: string;
  urgency: string;
  status: string;
}

export interface AlertCard {
  alert: CardAlert;
  team: string;
  /** The alert in the console, or null when the deployment has no console address. */
  link: string | null;
  /** When the alert was assigned (ISO 8601). */
  at: string;
}

export interface FollowUp {
  alert: CardAlert;
  link: string | null;
  /** What happened, in words: "acknowledged", "handed off to Platform". */
  change: string;
  /** Who made the change (a person's or an integration's name), or null for the service itself. */
  by: string | null;
}

const TITLE_CHARS = 200;
const DESCRIPTION_CHARS = 1_000;

function cut(text: string, max: number): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function capitalized(word: string): string {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** The color of a card: its status once someone acted, else its urgency. */
export function cardColor(alert: Pick<CardAlert, 'status' | 'urgency'>): string {
  switch (alert.status) {
    case 'resolved':
    case 'archived':
      return '#2E7D32';
    case 'acknowledged':
      return '#F9A825';
    case 'dropped':
    case 'suppressed':
      return '#757575';
  }
  const byUrgency: Record<string, string> = {
    critical: '#B71C1C',
    high: '#E53935',
    medium: '#FB8C00',
    low: '#1E88E5',
    silent: '#90A4AE',
  };
  return byUrgency[alert.urgency] ?? '#E53935';
}

/** The Adaptive Card container style closest to the card's color. */
function adaptiveStyle(alert: Pick<CardAlert, 'status' | 'urgency'>): string {
  if (alert.status === 'resolved' || alert.status === 'archived') return 'good';
  if (alert.status === 'acknowledged') return 'warning';
  if (alert.status === 'dropped' || alert.status === 'suppressed') return 'emphasis';
  return alert.urgency === 'critical' || alert.urgency === 'high' ? 'attention' : alert.urgency === 'medium' ? 'warning' : 'accent';
}

// ---- escaping, per chat ----

/** Slack: &, < and > are the control characters of its text (links, mentions like <!channel>). */
const slackText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Markdown (Teams, Discord, Mattermost): `[text](url)` in an alert's title would show a link the
 * service did not make. A zero-width space between `]` and `(` breaks the syntax and nothing else,
 * so titles like `[FIRING:1] HighCPU` read as they were sent.
 */
const markdownText = (text: string) => text.replace(/\]\(/g, ']\u200b(');

/** Mattermost: its markdown, and @-mentions (@channel, @all, @someone) broken the same way. */
const mattermostText = (text: string) => markdownText(text).replace(/@/g, '@\u200b');

/** Google Chat cards take a subset of HTML in their widgets' text. */
const googleCardText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Google Chat text messages write links and mentions (<users/all>) between angle brackets. */
const googleText = (text: string) => text.replace(/</g, '‹').replace(/>/g, '›');

const NO_MENTIONS = { parse: [] as string[] };

// ---- the card ----

function facts(card: AlertCard): { name: string; value: string }[] {
  return [
    { name: 'Urgency', value: capitalized(card.alert.urgency) },
    { name: 'Status', value: capitalized(card.alert.status) },
    { name: 'Team', value: card.team },
  ];
}

function heading(alert: CardAlert): string {
  return `#${alert.tiny_id} ${cut(alert.title, TITLE_CHARS)}`;
}

function attachmentCard(card: AlertCard, escape: (text: string) => string): Record<string, unknown> {
  const title = heading(card.alert);
  const description = cut(card.alert.description, DESCRIPTION_CHARS);
  return {
    attachments: [
      {
        fallback: escape(`${title} (${card.alert.urgency}, ${card.alert.status})`),
        color: cardColor(card.alert),
        title: escape(title),
        ...(card.link ? { title_link: card.link } : {}),
        ...(description ? { text: escape(description) } : {}),
        fields: facts(card).map((fact) => ({ title: fact.name, value: escape(fact.value), short: true })),
        ts: Math.floor(Date.parse(card.at) / 1000),
      },
    ],
  };
}

function adaptiveCard(body: unknown[], actions: unknown[]): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(actions.length ? { actions } : {}),
          msteams: { width: 'Full' },
        },
      },
    ],
  };
}

function teamsCard(card: AlertCard): Record<string, unknown> {
  const description = cut(card.alert.description, DESCRIPTION_CHARS);
  return adaptiveCard(
    [
      {
        type: 'Container',
        style: adaptiveStyle(card.alert),
        bleed: true,
        items: [{ type: 'TextBlock', text: markdownText(heading(card.alert)), size: 'Large', weight: 'Bolder', wrap: true }],
      },
      { type: 'FactSet', facts: facts(card).map((fact) => ({ title: fact.name, value: markdownText(fact.value) })) },
      ...(description ? [{ type: 'TextBlock', text: markdownText(description), wrap: true, isSubtle: true }] : []),
    ],
    card.link ? [{ type: 'Action.OpenUrl', title: 'Open in the console', url: card.link }] : [],
  );
}

function googleChatCard(card: AlertCard): Record<string, unknown> {
  const description = cut(card.alert.description, DESCRIPTION_CHARS);
  const widgets: unknown[] = facts(card).map((fact) => ({ decoratedText: { topLabel: fact.name, text: googleCardText(fact.value) } }));
  if (description) widgets.push({ textParagraph: { text: googleCardText(description) } });
  if (card.link) widgets.push({ buttonList: { buttons: [{ text: 'Open in the console', onClick: { openLink: { url: card.link } } }] } });
  return {
    cardsV2: [
      {
        cardId: `alert-${card.alert.id}`,
        card: {
          header: { title: heading(card.alert), subtitle: `${capitalized(card.alert.urgency)} urgency · ${card.alert.status}` },
          sections: [{ widgets }],
        },
      },
    ],
  };
}

function discordCard(card: AlertCard): Record<string, unknown> {
  const description = cut(card.alert.description, DESCRIPTION_CHARS);
  return {
    embeds: [
      {
        title: heading(card.alert),
        ...(card.link ? { url: card.link } : {}),
        ...(description ? { description: markdownText(description) } : {}),
        color: Number.parseInt(cardColor(card.alert).slice(1), 16),
        fields: facts(card).map((fact) => ({ name: fact.name, value: markdownText(fact.value), inline: true })),
        timestamp: card.at,
      },
    ],
    allowed_mentions: NO_MENTIONS,
  };
}

/** The card posted when an alert is assigned to the team, as `type` takes it. */
export function alertCardPayload(type: ChatWebhookType, card: AlertCard): Record<string, unknown> {
  switch (type) {
    case 'slack':
      return attachmentCard(card, slackText);
    case 'mattermost':
      return attachmentCard(card, mattermostText);
    case 'msteams':
      return teamsCard(card);
    case 'google_chat':
      return googleChatCard(card);
    case 'discord':
      return discordCard(card);
  }
}

// ---- the follow-up line ----

function line(followUp: FollowUp, escape: (text: string) => string, link: (label: string, url: string) => string): string {
  const label = `#${followUp.alert.tiny_id}`;
  const who = followUp.by ? ` by ${escape(followUp.by)}` : ' by the service';
  return `${followUp.link ? link(label, followUp.link) : label} ${escape(followUp.change)}${who}: ${escape(cut(followUp.alert.title, TITLE_CHARS))}`;
}

/** The one line posted for a later change of an alert the team got a card for. */
export function followUpPayload(type: ChatWebhookType, followUp: FollowUp): Record<string, unknown> {
  const markdownLink = (label: string, url: string) => `[${label}](${url})`;
  switch (type) {
    case 'slack':
      return { text: line(followUp, slackText, (label, url) => `<${url}|${label}>`) };
    case 'mattermost':
      return { text: line(followUp, mattermostText, markdownLink) };
    case 'msteams':
      return adaptiveCard([{ type: 'TextBlock', text: line(followUp, markdownText, markdownLink), wrap: true }], []);
    case 'google_chat':
      return { text: line(followUp, googleText, (label, url) => `<${url}|${label}>`) };
    case 'discord':
      // SUPPRESS_EMBEDS (1 << 2): the console link is not unfurled under every line.
      return { content: line(followUp, markdownText, markdownLink), allowed_mentions: NO_MENTIONS, flags: 4 };
  }
}

/** A follow-up's words for an event: null when the event posts none (a card, or nothing). */
export function changeOf(event: string, assignees: string[]): string | null {
  const names = assignees.length ? assignees.join(', ') : 'someone else';
  switch (event) {
    case 'alert.acknowledged':
      return 'acknowledged';
    case 'alert.rejected':
      return 'rejected';
    case 'alert.resolved':
      return 'resolved';
    case 'alert.dropped':
      return 'dropped';
    case 'alert.archived':
      return 'archived';
    case 'alert.open':
      return 'open again';
    case 'alert.handoff':
      return `handed off to ${names}`;
    case 'alert.reassigned':
      return `reassigned to ${names}`;
    default:
      return null;
  }
}
