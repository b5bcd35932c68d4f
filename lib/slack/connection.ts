// PUT, GET and DELETE /api/v4/slack (docs/api.md#slack): an account connects one Slack workspace by
// its bot token (checked with auth.test) and signing secret, both stored sealed; one workspace
// belongs to at most one account (409). While connected, the account's alert changes are published
// to the Slack subscriber (team messages, lib/slack/team-messages.ts).
import { setAlertEventSubscriber } from '../alert-subscribers/subscribers';
import { STATUS_OR_ASSIGNEE_CHANGED } from '../alerts/alert-events';
import { requireAdmin } from '../auth/permissions';
import { sealSecret } from '../auth/sealed-secrets';
import { nowIso } from '../clock';
import { BadGateway, Conflict, Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { checkBotToken, type BotIdentity } from '../slack-client/methods';
import { sealingContext, type SlackConnectionRecord } from '../slack-client/records';
import { claimWorkspace, getConnection, putConnection, releaseWorkspace, removeConnection } from '../slack-client/store';
import { SlackCallFailed } from '../slack-client/web-api';
import { forgetWorkspace } from '../slack-client/workspace';
import { SLACK_SUBSCRIBER } from './records';
import { connectSlackInput } from './schemas';

export interface NewConnection extends BotIdentity {
  token: string;
  signingSecret: string;
  appId: string | null;
  via: SlackConnectionRecord['connected_via'];
  by: string | null;
}

/** Keeps a checked workspace as the account's connection (replacing the one before). */
export async function saveConnection(accountId: string, details: NewConnection): Promise<SlackConnectionRecord> {
  if (!(await claimWorkspace(details.teamId, accountId))) {
    throw new Conflict(`the Slack workspace ${details.teamName} (${details.teamId}) is connected to another account`);
  }
  const previous = await getConnection(accountId);
  const at = nowIso();
  const record: SlackConnectionRecord = {
    account_id: accountId,
    team_id: details.teamId,
    team_name: details.teamName,
    bot_user_id: details.botUserId,
    app_id: details.appId,
    bot_token_sealed: await sealSecret(details.token, sealingContext(accountId, 'bot_token')),
    signing_secret_sealed: await sealSecret(details.signingSecret, sealingContext(accountId, 'signing_secret')),
    connected_via: details.via,
    connected_by: details.by,
    connected_at: at,
    updated_at: at,
    version: (previous?.version ?? 0) + 1,
  };
  await putConnection(record);
  if (previous && previous.team_id !== record.team_id) await releaseWorkspace(previous.team_id, accountId);
  forgetWorkspace(accountId);
  await setAlertEventSubscriber(accountId, SLACK_SUBSCRIBER, [STATUS_OR_ASSIGNEE_CHANGED]);
  return record;
}

export async function connectSlack(principal: Principal, body: unknown): Promise<SlackConnectionRecord> {
  requireAdmin(principal, 'connect Slack');
  const input = parseInput(connectSlackInput, body);
  let identity: BotIdentity;
  try {
    identity = await checkBotToken(input.bot_token);
  } catch (error) {
    if (!(error instanceof SlackCallFailed)) throw error;
    if (error.code === 'unreachable' || error.rateLimited) throw new BadGateway(`Slack could not check bot_token: ${error.message}`);
    throw new Invalid(`bot_token was refused by Slack (auth.test: ${error.code})`);
  }
  return saveConnection(principal.accountId, {
    ...identity,
    token: input.bot_token,
    signingSecret: input.signing_secret,
    appId: null,
    via: 'token',
    by: principal.accountUserId,
  });
}

export async function readSlackConnection(principal: Principal): Promise<SlackConnectionRecord> {
  const record = await getConnection(principal.accountId);
  if (!record) throw new NotFound('Slack is not connected');
  return record;
}

export async function disconnectSlack(principal: Principal): Promise<void> {
  requireAdmin(principal, 'disconnect Slack');
  const removed = await removeConnection(principal.accountId);
  if (!removed) throw new NotFound('Slack is not connected');
  forgetWorkspace(principal.accountId);
  await Promise.all([
    releaseWorkspace(removed.team_id, principal.accountId),
    setAlertEventSubscriber(principal.accountId, SLACK_SUBSCRIBER, null),
  ]);
}
