// API keys (contract §3). A key acts as one account user. Its token is shown once and stored only
// as a SHA-256 hash, in a pointer item that authentication finds by the hash of what the caller sent.
//   key        A#<acc>#APIKEY / <id>     gsi1: A#<acc>#ACU#<accountUserId>#APIKEY / <id>
//   token      TOKEN#<sha256 of token> / #   → key id, account, account user
import { ENTITY_TYPES, deleteItem, entityKey, fromItem, getItem, putNew, queryItems } from '../store/items';

const TYPE = ENTITY_TYPES.apiKey;

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

export const tokenKey = (hash: string) => ({ pk: `TOKEN#${hash}`, sk: '#' });
const byOwner = (accountId: string, accountUserId: string) => `A#${accountId}#ACU#${accountUserId}#APIKEY`;

/** Stores a key and its token pointer; false when that token is already in use. */
export async function putNewApiKey(record: ApiKeyRecord): Promise<boolean> {
  const pointer: TokenPointer = {
    key_id: record.id,
    account_id: record.account_id,
    account_user_id: record.account_user_id,
  };
  if (!(await putNew({ ...tokenKey(record.token_hash), ...pointer }))) return false;
  await putNew({
    ...entityKey(record.account_id, TYPE, record.id),
    gsi1pk: byOwner(record.account_id, record.account_user_id),
    gsi1sk: record.id,
    ...record,
  });
  return true;
}

export async function getApiKey(accountId: string, id: string): Promise<ApiKeyRecord | null> {
  const item = await getItem(entityKey(accountId, TYPE, id));
  return item ? fromItem<ApiKeyRecord>(item) : null;
}

export async function findTokenPointer(hash: string): Promise<TokenPointer | null> {
  const item = await getItem(tokenKey(hash));
  return item ? (fromItem<TokenPointer>(item) as TokenPointer) : null;
}

export async function apiKeysOf(accountId: string, accountUserId: string): Promise<ApiKeyRecord[]> {
  const items = await queryItems(byOwner(accountId, accountUserId), { index: 'gsi1', forward: false });
  return items.map((item) => fromItem<ApiKeyRecord>(item));
}

/** Deletes the key, then its token pointer (authentication also checks that the key exists). */
export async function deleteApiKeyRecord(record: ApiKeyRecord): Promise<void> {
  await deleteItem(entityKey(record.account_id, TYPE, record.id));
  await deleteItem(tokenKey(record.token_hash));
}
