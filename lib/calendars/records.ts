// A calendar feed (contract §14): a secret address that reads one schedule's on-call spans, or one
// person's on every schedule. Only the SHA-256 of its token is stored; the token is the credential.

/** Whose spans a feed shows. */
export type CalendarScope = 'schedule' | 'account_user';

/** What a token's hash points to. */
export interface CalendarFeedRecord {
  token_hash: string;
  account_id: string;
  scope: CalendarScope;
  /** The schedule's id, or the account user's. */
  owner_id: string;
  /** The account user who asked for the address. */
  created_by: string;
  created_at: string;
}
