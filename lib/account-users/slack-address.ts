// Where a page by Slack goes (docs/api.md#slack): the person's `slack_user_id`; when it is null, the
// connected workspace is asked once, users.lookupByEmail with their primary e-mail, and the id it
// gives is kept on the account user (and linked, so the person's clicks act as them). No workspace,
// no e-mail, or nobody in Slack with that address: the page is recorded failed with the reason.
import { SealedSecretUnreadable } from '../auth/sealed-secrets';
import { logger } from '../log';
import { lookupUserByEmail } from '../slack-client/methods';
import { SlackCallFailed } from '../slack-client/web-api';
import { workspaceOf } from '../slack-client/workspace';
import type { AccountUserRecord } from './records';
import { claimSlackUser, getAccountUser, releaseSlackUser, saveAccountUser } from './store';

export interface SlackAddress {
  /** The Slack user id, or '' when there is none. */
  to: string;
  /** Why nothing can be sent (recorded in the notification's `err`), else null. */
  undeliverable: string | null;
}

/** Lookups in flight per account user: pages of several alerts at once ask Slack once. */
const inFlight = new Map<string, Promise<SlackAddress>>();

export async function slackAddressOf(accountUser: AccountUserRecord): Promise<SlackAddress> {
  if (accountUser.slack_user_id) return { to: accountUser.slack_user_id, undeliverable: null };
  const key = `${accountUser.account_id}/${accountUser.id}`;
  let lookup = inFlight.get(key);
  if (!lookup) {
    lookup = findInSlack(accountUser).finally(() => inFlight.delete(key));
    inFlight.set(key, lookup);
  }
  return lookup;
}

async function findInSlack(accountUser: AccountUserRecord): Promise<SlackAddress> {
  const fail = (undeliverable: string): SlackAddress => ({ to: '', undeliverable });
  let workspace;
  try {
    workspace = await workspaceOf(accountUser.account_id);
  } catch (error) {
    if (error instanceof SealedSecretUnreadable) return fail(`the Slack connection cannot be used: ${error.message}; connect Slack again`);
    throw error;
  }
  if (!workspace) return fail('Slack is not connected for this account (PUT /api/v4/slack)');
  const email = accountUser.user.emails.find((e) => e.primary)?.email ?? accountUser.user.emails[0]?.email;
  if (!email) return fail('the person has no slack_user_id and no e-mail address to find them in Slack by');
  let slackUserId: string;
  try {
    slackUserId = await lookupUserByEmail(workspace, email);
  } catch (error) {
    if (!(error instanceof SlackCallFailed)) throw error;
    if (error.code === 'users_not_found') {
      return fail(
        `nobody in the Slack workspace ${workspace.teamName} has the e-mail ${email} (users.lookupByEmail: users_not_found); set slack_user_id`,
      );
    }
    return fail(`Slack could not find the person: ${error.message}`);
  }
  await keepSlackUserId(accountUser, slackUserId);
  return { to: slackUserId, undeliverable: null };
}

/** Keeps a looked-up id, unless the person got one meanwhile or another account user is that Slack user. */
async function keepSlackUserId(accountUser: AccountUserRecord, slackUserId: string): Promise<void> {
  if (!(await claimSlackUser(accountUser.account_id, slackUserId, accountUser.id))) {
    logger.warn('slack: a looked-up Slack user is linked to another account user; not kept', { accountUserId: accountUser.id });
    return;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getAccountUser(accountUser.account_id, accountUser.id);
    if (!current || current.slack_user_id) {
      if (current?.slack_user_id !== slackUserId) await releaseSlackUser(accountUser.account_id, slackUserId, accountUser.id);
      return;
    }
    const next: AccountUserRecord = {
      ...current,
      slack_user_id: slackUserId,
      updated_at: new Date().toISOString(),
      version: current.version + 1,
    };
    if (await saveAccountUser(next)) return;
  }
}
