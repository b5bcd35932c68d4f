// Data access for SCIM tokens (lib/store/ACCESS-PATTERNS.md, "Platform entities").
//   token      A#<acc>#SCIMTOKEN / <id>
//   secret     SCIMTOKEN#<sha256 of token> / #   → token id, account
// Apart from the API keys' TOKEN# pointers, so that neither credential authenticates where the other does.
import { entityStore } from '../store/entity-store';
import { deleteItem, fromItem, getItem, putNew } from '../store/items';
import type { ScimTokenPointer, ScimTokenRecord } from './records';

const secretKey = (hash: string) => ({ pk: `SCIMTOKEN#${hash}`, sk: '#' });

const scimTokens = entityStore<ScimTokenRecord>({ kind: 'scimToken', countedAs: false });

/** Stores a token and its secret's pointer; false when that secret is already in use. */
export async function insertScimToken(record: ScimTokenRecord): Promise<boolean> {
  const pointer: ScimTokenPointer = { token_id: record.id, account_id: record.account_id };
  if (!(await putNew({ ...secretKey(record.token_hash), ...pointer }))) return false;
  await putNew(scimTokens.item(record));
  return true;
}

export const getScimToken = scimTokens.get;
/** For a read combined with others in one round trip (lib/store/entity-store.ts getEach). */
export const scimTokenRef = scimTokens.ref;

/** The account's tokens, newest first. */
export async function listScimTokens(accountId: string): Promise<ScimTokenRecord[]> {
  return scimTokens.list(accountId, { forward: false });
}

export async function getScimTokenPointer(hash: string): Promise<ScimTokenPointer | null> {
  const item = await getItem(secretKey(hash));
  return item ? fromItem<ScimTokenPointer>(item) : null;
}

/** Deletes the token, then its pointer (authentication also checks that the token exists). */
export async function removeScimToken(record: ScimTokenRecord): Promise<void> {
  await deleteItem(scimTokens.key(record.account_id, record.id));
  await deleteItem(secretKey(record.token_hash));
}
