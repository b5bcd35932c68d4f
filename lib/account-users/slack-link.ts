// A Slack user acts as one account user of the account (docs/api.md#slack): a link per Slack user,
// claimed before the account user names them, so two account users can never both be one Slack user.
// A link left behind by a write that failed after its claim (its account user does not name that
// Slack user) is taken over.
import { Conflict } from '../http/errors';
import type { AccountUserRecord } from './records';
import { SLACK_USER_ID } from './schemas';
import { claimSlackUser, getAccountUser, getAccountUserIdBySlackUser, putSlackUserLink } from './store';

export async function linkSlackUser(accountId: string, slackUserId: string, accountUserId: string): Promise<void> {
  if (await claimSlackUser(accountId, slackUserId, accountUserId)) return;
  if (await linkedAccountUser(accountId, slackUserId)) {
    throw new Conflict(`slack_user_id ${slackUserId} is already linked to another account user`);
  }
  await putSlackUserLink(accountId, slackUserId, accountUserId);
}

/** The account user a Slack user acts as: linked, and still naming that Slack user; else null. */
export async function linkedAccountUser(accountId: string, slackUserId: string): Promise<AccountUserRecord | null> {
  // Nobody can be linked to what is not a Slack user id (and the store keys none: an empty one is refused by DynamoDB).
  if (!SLACK_USER_ID.test(slackUserId)) return null;
  const id = await getAccountUserIdBySlackUser(accountId, slackUserId);
  const accountUser = id ? await getAccountUser(accountId, id) : null;
  return accountUser?.slack_user_id === slackUserId ? accountUser : null;
}
