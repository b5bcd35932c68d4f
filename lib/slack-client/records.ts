// A Slack workspace connected to an account (docs/api.md#slack): what auth.test (or oauth.v2.access)
// said about the bot token, and the bot token and signing secret sealed (lib/auth/sealed-secrets.ts),
// never readable from the record alone.

export interface SlackConnectionRecord {
  account_id: string;
  team_id: string;
  team_name: string;
  bot_user_id: string;
  app_id: string | null;
  /** Sealed with the context `slack:<account>:bot_token`. */
  bot_token_sealed: string;
  /** Sealed with the context `slack:<account>:signing_secret`. */
  signing_secret_sealed: string;
  /** How it was connected: a pasted token, or "Add to Slack". */
  connected_via: 'token' | 'oauth';
  /** The account user who connected it. */
  connected_by: string | null;
  connected_at: string;
  updated_at: string;
  version: number;
}

export const sealingContext = (accountId: string, field: 'bot_token' | 'signing_secret') => `slack:${accountId}:${field}`;

/** A connected workspace, its secrets opened: what the Slack calls and signature checks use. */
export interface SlackWorkspace {
  accountId: string;
  teamId: string;
  teamName: string;
  botUserId: string;
  token: string;
  signingSecret: string;
}
