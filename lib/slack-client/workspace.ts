// The connected workspace of an account, its secrets opened, as the Slack calls need it: read once
// and kept a few seconds per process (a page to Slack, a team message and a click each need it), and
// dropped at once when this process connects or disconnects.
import { openSecret } from '../auth/sealed-secrets';
import { onEnvironmentChange } from '../dependencies';
import { TtlCache } from '../ttl-cache';
import { sealingContext, type SlackConnectionRecord, type SlackWorkspace } from './records';
import { getConnection, getWorkspaceAccount } from './store';

const CACHE_MS = 10_000;
const workspaces = new TtlCache<SlackWorkspace | null>(() => CACHE_MS);

export async function openWorkspace(record: SlackConnectionRecord): Promise<SlackWorkspace> {
  const [token, signingSecret] = await Promise.all([
    openSecret(record.bot_token_sealed, sealingContext(record.account_id, 'bot_token')),
    openSecret(record.signing_secret_sealed, sealingContext(record.account_id, 'signing_secret')),
  ]);
  return {
    accountId: record.account_id,
    teamId: record.team_id,
    teamName: record.team_name,
    botUserId: record.bot_user_id,
    token,
    signingSecret,
  };
}

/** The account's workspace, or null when Slack is not connected. Throws when its secrets do not open. */
export async function workspaceOf(accountId: string): Promise<SlackWorkspace | null> {
  const cached = workspaces.get(accountId);
  if (cached !== undefined) return cached;
  const record = await getConnection(accountId);
  const workspace = record ? await openWorkspace(record) : null;
  workspaces.set(accountId, workspace);
  return workspace;
}

const accountsOfTeams = new TtlCache<string | null>(() => CACHE_MS);

// Another table holds other connections (the local runtime, tests).
onEnvironmentChange(() => {
  workspaces.clear();
  accountsOfTeams.clear();
});

/** The workspace a request from Slack names (its team id), or null when no account connected it. */
export async function workspaceByTeam(teamId: string): Promise<SlackWorkspace | null> {
  let accountId = accountsOfTeams.get(teamId);
  if (accountId === undefined) {
    accountId = await getWorkspaceAccount(teamId);
    accountsOfTeams.set(teamId, accountId);
  }
  if (!accountId) return null;
  const workspace = await workspaceOf(accountId);
  return workspace?.teamId === teamId ? workspace : null;
}

/** A connection changed in this process: forget what was kept. */
export function forgetWorkspace(accountId: string): void {
  workspaces.delete(accountId);
  accountsOfTeams.clear();
}
