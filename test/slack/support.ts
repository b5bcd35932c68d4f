// Arrangements of the Slack tests: the stand-in, the account connected to one of its workspaces,
// people linked to Slack users, and signed clicks and commands sent as Slack sends them (timestamps
// by the service's clock, which some tests move forward).
import { expect } from 'vitest';
import { now } from '../../lib/clock';
import { WORKING_ON_IT } from '../../lib/slack/commands';
import type { ApiClient } from '../support/api-client';
import type { SlackStandIn, Workspace } from '../support/slack-stand-in';
import { person, type Person } from '../escalation/support';

export interface SlackPerson extends Person {
  slackUserId: string;
}

export async function connect(client: ApiClient, standIn: SlackStandIn, workspace: Workspace) {
  const res = await client.put('/api/v4/slack', { bot_token: workspace.botToken, signing_secret: workspace.signingSecret });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/**
 * A person Slack knows by their e-mail, paged on Slack only (notify_slack; no push or e-mail), and
 * linked (`slack_user_id` set) unless `linked` is false: then the first page looks them up.
 */
export async function slackPerson(
  admin: ApiClient,
  standIn: SlackStandIn,
  workspace: Workspace,
  options: { linked?: boolean; name?: string } = {},
): Promise<SlackPerson> {
  const p = await person(admin, { push: false, email: false, name: options.name });
  const slackUserId = standIn.addUser(workspace, p.email, p.name);
  const res = await admin.put(`/api/v4/account_users/${p.id}`, {
    ...(options.linked === false ? {} : { slack_user_id: slackUserId }),
    user_attributes: { notify_slack: true },
  });
  expect(res.status, res.text).toBe(200);
  return { ...p, slackUserId };
}

export const nowSeconds = () => Math.floor(now() / 1000);

/** A signed click on a button of an alert message. */
export async function click(
  service: { url: string },
  standIn: SlackStandIn,
  workspace: Workspace,
  options: {
    userId: string;
    actionId: string;
    value: string;
    channel?: string;
    messageTs?: string;
    actionTs?: string;
    secret?: string;
    timestampSeconds?: number;
  },
) {
  const { body, responseUrl, actionTs } = standIn.clickPayload(workspace, options);
  const res = await standIn.send(service.url, '/public/slack/interactions', body, {
    secret: options.secret ?? workspace.signingSecret,
    timestampSeconds: options.timestampSeconds ?? nowSeconds(),
  });
  return { ...res, responseUrl, actionTs, sent: body };
}

/**
 * A signed /oncall command, and `answer`: what the person reads in the end. That is the HTTP answer,
 * unless it said the work goes on (a slow store: moto), when it is the result that then came
 * through the response_url, waited for as it arrives.
 */
export async function command(
  service: { url: string },
  standIn: SlackStandIn,
  workspace: Workspace,
  options: { userId: string; text: string; secret?: string },
) {
  const { body, responseUrl } = standIn.commandBody(workspace, options);
  const res = await standIn.send(service.url, '/public/slack/commands', body, {
    secret: options.secret ?? workspace.signingSecret,
    timestampSeconds: nowSeconds(),
  });
  return { ...res, responseUrl, sent: body, answer: await finalAnswer(standIn, res, responseUrl, 0) };
}

/**
 * The text of a command's answer, or (after "Working on it…") of the result posted to its
 * response_url after the `seen` posts there before the command was sent.
 */
export async function finalAnswer(
  standIn: SlackStandIn,
  res: { status: number; body: any },
  responseUrl: string,
  seen: number,
): Promise<string> {
  if (res.status !== 200) return '';
  const text = String(res.body?.text ?? '');
  if (text !== WORKING_ON_IT) return text;
  const late = await eventually(() => standIn.responsesTo(responseUrl)[seen], 'the result of a command that was still at work', 30_000);
  return String(late.body.text ?? '');
}

export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The buttons of a message's blocks: action_id → value. */
export function buttonsOf(blocks: any[]): Record<string, string> {
  const buttons: Record<string, string> = {};
  for (const block of blocks ?? []) {
    if (block.type !== 'actions') continue;
    for (const element of block.elements) buttons[element.action_id] = element.value;
  }
  return buttons;
}

/** Every text of a message's blocks, joined. */
export function textOf(blocks: any[]): string {
  return JSON.stringify(blocks ?? []);
}
