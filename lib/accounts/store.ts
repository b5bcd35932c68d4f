// Data access for accounts (lib/store/ACCESS-PATTERNS.md, "Platform entities").
//   account      ACCOUNT#<id> / #
//   first start  SYSTEM / BOOTSTRAP   records that the first account was created, so two processes
//                                     starting at once cannot both create one
import { fromItem, getItem, putIfVersion, putNew } from '../store/items';
import type { AccountRecord } from './records';

const accountKey = (id: string) => ({ pk: `ACCOUNT#${id}`, sk: '#' });
const BOOTSTRAP_KEY = { pk: 'SYSTEM', sk: 'BOOTSTRAP' };

export async function getAccount(id: string): Promise<AccountRecord | null> {
  const item = await getItem(accountKey(id));
  return item ? fromItem<AccountRecord>(item) : null;
}

export async function insertAccount(account: AccountRecord): Promise<void> {
  if (!(await putNew({ ...accountKey(account.id), ...account }))) throw new Error(`account ${account.id} exists`);
}

export async function saveAccount(account: AccountRecord): Promise<boolean> {
  return putIfVersion({ ...accountKey(account.id), ...account }, account.version - 1);
}

export async function getBootstrapMarker(): Promise<{ account_id: string } | null> {
  const item = await getItem(BOOTSTRAP_KEY);
  return item ? { account_id: String(item.account_id) } : null;
}

/** Claims the right to create the first account; false when it was already claimed. */
export async function claimBootstrap(accountId: string): Promise<boolean> {
  return putNew({ ...BOOTSTRAP_KEY, account_id: accountId, created_at: new Date().toISOString() });
}
