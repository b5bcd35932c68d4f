// The stored SCIM token (docs/api.md#scim-provisioning): a credential of the account that an identity
// provider provisions people and teams with. Like an API key, its secret is shown once and kept only
// as a SHA-256 hash, in a pointer item that authentication finds by the hash of what was sent; unlike
// one, it acts for the account (as an admin) and is accepted under /scim/v2 alone.
export interface ScimTokenRecord {
  id: string;
  account_id: string;
  name: string;
  /** The admin who made it: the actor its changes are attributed to. */
  created_by: string;
  token_hash: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface ScimTokenPointer {
  token_id: string;
  account_id: string;
}
