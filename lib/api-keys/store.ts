// Data access for API keys (lib/store/ACCESS-PATTERNS.md, "Platform entities").
//   key        A#<acc>#APIKEY / <id>     gsi1: A#<acc>#ACU#<accountUserId>#APIKEY / <id>
//   token      TOKEN#<sha256 of token> / #   → key id, account, account user
// Keys are not counted: an account user's keys are listed from their own index partition.
import { entityStore } from '../store/entity-store';
import { deleteItem, fromItem, getItem, putNew } from '../store/items';
import type { ApiKeyRecord, TokenPointer } from './records';

const tokenKey = (hash: string) => ({ pk: `TOKEN#${hash}`, sk: '#' });
const byOwner = (accountId: string, accountUserId: string) => `A#${accountId}#ACU#${accountUserId}#APIKEY`;

const apiKeys = entityStore<ApiKeyRecord>({
  kind: 'apiKey',
  audit: { objectType: 'api_key' },
  indexKeys: (record) => ({ gsi1pk: byOwner(record.account_id, record.account_user_id), gsi1sk: record.id }),
  countedAs: false,
});

/** Stores a key and its token pointer; false when that token is already in use. */
export async function insertApiKey(record: ApiKeyRecord): Promise<boolean> {
  const pointer: TokenPointer = { key_id: record.id, account_id: record.account_id, account_user_id: record.account_user_id };
  if (!(await putNew({ ...tokenKey(record.token_hash), ...pointer }))) return false;
  await apiKeys.insert(record);
  return true;
}

export const getApiKey = apiKeys.get;
/** For a read combined with others in one round trip (lib/store/entity-store.ts getEach). */
export const apiKeyRef = apiKeys.ref;

export async function getTokenPointer(hash: string): Promise<TokenPointer | null> {
  const item = await getItem(tokenKey(hash));
  return item ? fromItem<TokenPointer>(item) : null;
}

/** One account user's keys, newest first. */
export async function listApiKeysOf(accountId: string, accountUserId: string): Promise<ApiKeyRecord[]> {
  return apiKeys.query(byOwner(accountId, accountUserId), { index: 'gsi1', forward: false });
}

/** Deletes the key, then its token pointer (authentication also checks that the key exists). */
export async function removeApiKey(record: ApiKeyRecord): Promise<void> {
  await apiKeys.remove(record.account_id, record.id);
  await deleteItem(tokenKey(record.token_hash));
}
