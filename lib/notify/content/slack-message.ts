// Slack messages (docs/api.md#slack), pure: an alert as Block Kit blocks – its tiny id and title
// (linked to the alert in the console), urgency, status and who changed it, and buttons whose
// `action_id` is the action and whose `value` is the alert's prefix id – for a page by direct message
// and for a team's channel; a broadcast with a button per response option. Every text a third party
// chose is escaped for Slack's mrkdwn and cut to Slack's limits; `text` is the notification line.
import type { ActionsBlock, Button, KnownBlock, SectionBlock } from '@slack/types';
import { prefixId } from '../../ids';

export type SlackAlertAction = 'acknowledge' | 'reject' | 'resolve';

export const SLACK_ALERT_ACTIONS: readonly SlackAlertAction[] = ['acknowledge', 'reject', 'resolve'];

export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

export interface SlackAlertView {
  prefixId: string;
  tinyId: number | string;
  title: string;
  urgency: string;
  status: string;
  description?: string | null;
  /** The alert's page in the console, or null when no console address is known. */
  link: string | null;
  /** The line above the facts (a page's rendered subject); default "Alert #<tiny id>: <title>". */
  headline?: string | null;
  /** Who made the last change of status or assignee, and what it was ("Acknowledged by Ada"). */
  change?: string | null;
  /** The team or person it is assigned to now. */
  assignee?: string | null;
}

/** The facts of an alert a Slack message shows, as the alert holds them; `link` its page in the console. */
export function slackAlertView(
  alert: { id: string; tiny_id: number; title: string; urgency: string; status: string; description?: string | null },
  link: string | null,
): SlackAlertView {
  return {
    prefixId: prefixId('alert', alert.id),
    tinyId: alert.tiny_id,
    title: alert.title,
    urgency: alert.urgency,
    status: alert.status,
    description: alert.description,
    link,
  };
}

/** Slack's limits: section text 3 000 characters, a button's text 75 and value 2 000, text 40 000. */
const MAX_SECTION = 3_000;
const MAX_DESCRIPTION = 1_000;
const MAX_TEXT = 3_000;

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Slack's mrkdwn reads &, < and > as control characters: escaped, a title cannot mention @channel or forge a link. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const capitalized = (text: string) => (text ? `${text[0].toUpperCase()}${text.slice(1)}` : text);

const BUTTON_TEXT: Record<SlackAlertAction, string> = { acknowledge: 'Acknowledge', reject: 'Reject', resolve: 'Resolve' };

/** The buttons that apply to an alert in a status (v4 transitions); reject only where a page can be rejected. */
export function slackAlertActions(status: string, options: { reject?: boolean } = {}): SlackAlertAction[] {
  const actions: SlackAlertAction[] = [];
  if (status === 'open' || status === 'dropped' || status === 'suppressed') actions.push('acknowledge');
  if (status === 'open' && (options.reject ?? true)) actions.push('reject');
  if (status === 'open' || status === 'dropped' || status === 'acknowledged') actions.push('resolve');
  return actions;
}

function button(action: SlackAlertAction, value: string): Button {
  return {
    type: 'button',
    action_id: action,
    text: { type: 'plain_text', text: BUTTON_TEXT[action] },
    value,
    ...(action === 'acknowledge' ? { style: 'primary' as const } : action === 'reject' ? { style: 'danger' as const } : {}),
  };
}

export function slackAlertMessage(view: SlackAlertView, actions: readonly SlackAlertAction[]): SlackMessage {
  const title = cut(oneLine(view.title), 500) || '(no title)';
  const headline = cut(oneLine(view.headline ?? `Alert #${view.tinyId}: ${title}`), 500);
  const linked = view.link ? `*<${view.link}|${escapeMrkdwn(headline).replace(/\|/g, '¦')}>*` : `*${escapeMrkdwn(headline)}*`;
  const status = capitalized(view.status);
  const facts = [
    `*Urgency:* ${escapeMrkdwn(oneLine(view.urgency)) || '–'}`,
    `*Status:* ${escapeMrkdwn(status)}`,
    ...(view.assignee ? [`*Assigned to:* ${escapeMrkdwn(cut(oneLine(view.assignee), 200))}`] : []),
  ];
  const description = cut((view.description ?? '').trim(), MAX_DESCRIPTION);
  const main: SectionBlock = {
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: cut([linked, facts.join('   '), description ? escapeMrkdwn(description) : ''].filter(Boolean).join('\n'), MAX_SECTION),
    },
  };
  const blocks: KnownBlock[] = [main];
  if (view.change) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(cut(oneLine(view.change), 300)) }] });
  if (actions.length > 0) {
    const row: ActionsBlock = {
      type: 'actions',
      block_id: 'alert_actions',
      elements: actions.map((action) => button(action, view.prefixId)),
    };
    blocks.push(row);
  }
  const changed = view.change ? ` – ${oneLine(view.change)}` : '';
  return { text: cut(`${headline} (${oneLine(view.urgency) || 'no urgency'}, ${view.status})${changed}`, MAX_TEXT), blocks };
}

export interface SlackBroadcastView {
  prefixId: string;
  tinyId: number | string;
  title: string;
  body: string;
  link: string | null;
  /** Response options in their order; empty when no response is asked for. */
  options: { prefixId: string; value: string }[];
}

/** action_id of a broadcast's response buttons; their value is `<brd_…>/<bro_…>`. */
export const BROADCAST_RESPONSE_ACTION = 'broadcast_response';

export function slackBroadcastMessage(view: SlackBroadcastView): SlackMessage {
  const title = cut(oneLine(view.title), 500) || '(no title)';
  const headline = `Broadcast #${view.tinyId}: ${title}`;
  const linked = view.link ? `*<${view.link}|${escapeMrkdwn(headline).replace(/\|/g, '¦')}>*` : `*${escapeMrkdwn(headline)}*`;
  const body = cut(view.body.trim(), MAX_DESCRIPTION);
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: cut([linked, body ? escapeMrkdwn(body) : ''].filter(Boolean).join('\n'), MAX_SECTION) },
    },
  ];
  if (view.options.length > 0) {
    blocks.push({
      type: 'actions',
      block_id: 'broadcast_responses',
      elements: view.options.slice(0, 25).map((option, index) => ({
        type: 'button' as const,
        action_id: `${BROADCAST_RESPONSE_ACTION}_${index}`,
        text: { type: 'plain_text' as const, text: cut(oneLine(option.value), 75) || `Option ${index + 1}` },
        value: `${view.prefixId}/${option.prefixId}`,
      })),
    });
  }
  return { text: cut(headline, MAX_TEXT), blocks };
}

/** A short answer (ephemeral or in place): one section of plain words. */
export function slackNotice(text: string): SlackMessage {
  return { text: cut(text, MAX_TEXT), blocks: [{ type: 'section', text: { type: 'mrkdwn', text: cut(escapeMrkdwn(text), MAX_SECTION) } }] };
}
