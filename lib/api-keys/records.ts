// The stored API key (docs/api.md#authentication): it acts as one account user. Its token is shown once and kept
// only as a SHA-256 hash, in a pointer item that authentication finds by the hash of what was sent.
export interface ApiKeyRecord {
  id: string;
  account_id: string;
  account_user_id: string;
  name: string;
  token_hash: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface TokenPointer {
  key_id: string;
  account_id: string;
  account_user_id: string;
}
