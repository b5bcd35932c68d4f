// The Web API methods the service uses (docs/api.md#slack), each a thin typed call through
// web-api.ts: auth.test (check a bot token), oauth.v2.access ("Add to Slack"), users.lookupByEmail,
// chat.postMessage and chat.update; and posts to an interaction's response_url (ephemeral answers).
import type { KnownBlock } from '@slack/types';
import { config } from '../config';
import { callSlack, SlackCallFailed } from './web-api';

/** What the service needs to call Slack for one workspace. */
export interface SlackWorkspaceToken {
  teamId: string;
  token: string;
}

export interface SlackMessageContent {
  /** The notification text (shown where blocks cannot be, and by screen readers). */
  text: string;
  blocks?: KnownBlock[];
}

export interface BotIdentity {
  teamId: string;
  teamName: string;
  botUserId: string;
}

/** auth.test: whose token this is. Throws SlackCallFailed (`invalid_auth`, `account_inactive`, …). */
export async function checkBotToken(token: string): Promise<BotIdentity> {
  const answer = await callSlack<{ team_id?: string; team?: string; user_id?: string }>('auth', 'auth.test', token);
  if (!answer.team_id || !answer.user_id) throw new SlackCallFailed('auth.test', 'not_a_bot_token', null, 'no team or user in the answer');
  return { teamId: answer.team_id, teamName: answer.team ?? answer.team_id, botUserId: answer.user_id };
}

export interface InstalledBot extends BotIdentity {
  token: string;
  appId: string | null;
  scope: string | null;
}

/** oauth.v2.access: exchanges the code of Slack's redirect for the workspace's bot token. */
export async function exchangeInstallCode(code: string, redirectUri: string): Promise<InstalledBot> {
  const { SLACK_CLIENT_ID, SLACK_CLIENT_SECRET } = config();
  if (!SLACK_CLIENT_ID || !SLACK_CLIENT_SECRET) throw new SlackCallFailed('oauth.v2.access', 'not_configured');
  const answer = await callSlack<{
    access_token?: string;
    team?: { id?: string; name?: string };
    bot_user_id?: string;
    app_id?: string;
    scope?: string;
  }>('oauth', 'oauth.v2.access', undefined, {
    client_id: SLACK_CLIENT_ID,
    client_secret: SLACK_CLIENT_SECRET,
    code,
    redirect_uri: redirectUri,
  });
  if (!answer.access_token || !answer.team?.id || !answer.bot_user_id) {
    throw new SlackCallFailed('oauth.v2.access', 'no_bot_token', null, 'the answer holds no bot token, team or bot user');
  }
  return {
    token: answer.access_token,
    teamId: answer.team.id,
    teamName: answer.team.name ?? answer.team.id,
    botUserId: answer.bot_user_id,
    appId: answer.app_id ?? null,
    scope: answer.scope ?? null,
  };
}

/** users.lookupByEmail: the Slack user id of the workspace member with this e-mail (`users_not_found` otherwise). */
export async function lookupUserByEmail(workspace: SlackWorkspaceToken, email: string): Promise<string> {
  const answer = await callSlack<{ user?: { id?: string } }>(workspace.teamId, 'users.lookupByEmail', workspace.token, { email });
  if (!answer.user?.id) throw new SlackCallFailed('users.lookupByEmail', 'users_not_found');
  return answer.user.id;
}

/** chat.postMessage to a channel, or to a person's direct messages (`channel` = their user id). */
export async function postMessage(
  workspace: SlackWorkspaceToken,
  channel: string,
  content: SlackMessageContent,
): Promise<{ channel: string; ts: string }> {
  const answer = await callSlack<{ channel?: string; ts?: string }>(workspace.teamId, 'chat.postMessage', workspace.token, {
    channel,
    text: content.text,
    ...(content.blocks ? { blocks: content.blocks } : {}),
    unfurl_links: false,
  });
  if (!answer.ts || !answer.channel)
    throw new SlackCallFailed('chat.postMessage', 'no_message', null, 'the answer names no channel and ts');
  return { channel: answer.channel, ts: answer.ts };
}

/** chat.update of a message the bot posted (its channel and ts); blocks replaced whole. */
export async function updateMessage(
  workspace: SlackWorkspaceToken,
  channel: string,
  ts: string,
  content: SlackMessageContent,
): Promise<void> {
  await callSlack(workspace.teamId, 'chat.update', workspace.token, { channel, ts, text: content.text, blocks: content.blocks ?? [] });
}

const RESPONSE_URL_TIMEOUT_MS = 2_500;

/**
 * Whether a response_url may be posted to: Slack's hooks host, or the host SLACK_API_URL names (a
 * stand-in). The request carrying it is signed, but a leaked signing secret must not turn this into
 * a way to reach other addresses.
 */
export function isSlackResponseUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (parsed.protocol === 'https:' && parsed.hostname === 'hooks.slack.com') return true;
  const api = new URL(config().SLACK_API_URL);
  return parsed.protocol === api.protocol && parsed.host === api.host;
}

export interface ResponseUrlMessage extends SlackMessageContent {
  response_type?: 'ephemeral' | 'in_channel';
  replace_original?: boolean;
}

/** An answer through an interaction's response_url (valid 30 minutes, 5 uses). Throws SlackCallFailed. */
export async function postToResponseUrl(url: string, message: ResponseUrlMessage): Promise<void> {
  if (!isSlackResponseUrl(url)) throw new SlackCallFailed('response_url', 'refused_url', null, 'not an address of Slack');
  let answer: Response;
  try {
    answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      redirect: 'error',
      signal: AbortSignal.timeout(RESPONSE_URL_TIMEOUT_MS),
    });
  } catch (error) {
    throw new SlackCallFailed('response_url', 'unreachable', null, (error as Error).message);
  }
  const text = await answer.text().catch(() => '');
  if (answer.status === 429) throw new SlackCallFailed('response_url', 'ratelimited', Number(answer.headers.get('retry-after')) || 1);
  if (answer.status !== 200) throw new SlackCallFailed('response_url', `http_${answer.status}`, null, text.slice(0, 200));
}
