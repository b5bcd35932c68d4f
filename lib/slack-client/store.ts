// Data access for Slack connections (lib/slack/ACCESS-PATTERNS.md):
//   connection        A#<acc>#SLACK / CONNECTION          the account's workspace (one at most)
//   workspace claim   SLACKTEAM#<team id> / #             {account_id}: one workspace, one account
// The claim is written (conditionally) before the connection, so two accounts connecting the same
// workspace cannot both win; a signed request from Slack names its workspace, and the claim says
// which account's signing secret checks it.
import { deleteItem, fromItem, getItem, putItem, putNew } from '../store/items';
import type { SlackConnectionRecord } from './records';

const connectionKey = (accountId: string) => ({ pk: `A#${accountId}#SLACK`, sk: 'CONNECTION' });
const claimKey = (teamId: string) => ({ pk: `SLACKTEAM#${teamId}`, sk: '#' });

export async function getConnection(accountId: string): Promise<SlackConnectionRecord | null> {
  const item = await getItem(connectionKey(accountId));
  return item ? fromItem<SlackConnectionRecord>(item) : null;
}

export async function putConnection(record: SlackConnectionRecord): Promise<void> {
  await putItem({ ...connectionKey(record.account_id), ...record });
}

export async function removeConnection(accountId: string): Promise<SlackConnectionRecord | null> {
  const item = await deleteItem(connectionKey(accountId));
  return item ? fromItem<SlackConnectionRecord>(item) : null;
}

/** The account a workspace is connected to, or null. */
export async function getWorkspaceAccount(teamId: string): Promise<string | null> {
  const item = await getItem(claimKey(teamId));
  return item ? String(item.account_id) : null;
}

/** Claims a workspace for an account: true when it is free or already this account's. */
export async function claimWorkspace(teamId: string, accountId: string): Promise<boolean> {
  if (await putNew({ ...claimKey(teamId), account_id: accountId })) return true;
  return (await getWorkspaceAccount(teamId)) === accountId;
}

/** Gives a workspace up, if this account holds it. */
export async function releaseWorkspace(teamId: string, accountId: string): Promise<void> {
  if ((await getWorkspaceAccount(teamId)) === accountId) await deleteItem(claimKey(teamId));
}
