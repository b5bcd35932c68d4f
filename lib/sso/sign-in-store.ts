// The two short-lived items of a single sign-on (lib/sso/ACCESS-PATTERNS.md). Each is keyed by the
// SHA-256 of a random value that only the browser holds (in the issuer's redirect, in the console's
// address), spent by a conditional delete, so of two uses one wins, and removed by the table's TTL
// some time after it expires (valid_until is what counts).
//   pending sign-in   SSOSTATE#<sha256(state)> / #   {account_id, nonce, code_verifier, redirect_uri, valid_until}
//   sign-in code      SSOCODE#<sha256(code)> / #     {account_id, account_user_id, user_id, valid_until}
import { deleteItem, fromItem, putNew } from '../store/items';
import { TTL_ATTRIBUTE } from '../store/table';

export interface PendingSignIn {
  account_id: string;
  nonce: string;
  code_verifier: string;
  /** The redirect URI sent with the authorization request: the token request must repeat it. */
  redirect_uri: string;
  /** Epoch milliseconds. */
  valid_until: number;
}

export interface SignInCode {
  account_id: string;
  account_user_id: string;
  user_id: string;
  /** Epoch milliseconds. */
  valid_until: number;
}

const stateKey = (hash: string) => ({ pk: `SSOSTATE#${hash}`, sk: '#' });
const codeKey = (hash: string) => ({ pk: `SSOCODE#${hash}`, sk: '#' });
const expiresAt = (validUntil: number) => Math.ceil(validUntil / 1000) + 3600;

async function insertOnce(key: { pk: string; sk: string }, record: { valid_until: number }): Promise<void> {
  if (!(await putNew({ ...key, ...record, [TTL_ATTRIBUTE]: expiresAt(record.valid_until) }))) {
    throw new Error('single sign-on value collision');
  }
}

async function spend<T>(key: { pk: string; sk: string }): Promise<T | null> {
  const item = await deleteItem(key);
  if (!item) return null;
  const { [TTL_ATTRIBUTE]: _ttl, ...record } = fromItem<Record<string, unknown>>(item);
  return record as T;
}

export const insertPendingSignIn = (stateHash: string, record: PendingSignIn) => insertOnce(stateKey(stateHash), record);

/** The pending sign-in, deleted; null when it is unknown or another request spent it first. */
export const spendPendingSignIn = (stateHash: string) => spend<PendingSignIn>(stateKey(stateHash));

export const insertSignInCode = (codeHash: string, record: SignInCode) => insertOnce(codeKey(codeHash), record);

/** The sign-in code, deleted; null when it is unknown or another request spent it first. */
export const spendSignInCode = (codeHash: string) => spend<SignInCode>(codeKey(codeHash));
