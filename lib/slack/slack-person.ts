// Who a Slack user is here (docs/api.md#slack): the account user linked to them (`slack_user_id`),
// acting with that person's roles, as their API key would.
import { linkedAccountUser } from '../account-users/slack-link';
import type { AccountUserRecord } from '../account-users/records';
import type { Principal } from '../http/principal';

export interface SlackPerson {
  accountUser: AccountUserRecord;
  principal: Principal;
}

/** What a Slack user linked to nobody is told; nothing is done for them. */
export const NOT_LINKED =
  'Your Slack user is not linked to anyone in this on-call account, so nothing was done. Ask an admin to set your slack_user_id, or set it on your profile.';

export async function slackPersonOf(accountId: string, slackUserId: string): Promise<SlackPerson | null> {
  const accountUser = await linkedAccountUser(accountId, slackUserId);
  if (!accountUser) return null;
  return {
    accountUser,
    principal: { accountId, accountUserId: accountUser.id, userId: accountUser.user_id, roles: accountUser.roles, via: 'slack' },
  };
}
