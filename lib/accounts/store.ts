// Accounts: ACCOUNT#<id> / #. The bootstrap marker SYSTEM / BOOTSTRAP records that the first
// account was created, so two processes starting at once cannot both create one.
import { fromItem, getItem, putIfVersion, putNew } from '../store/items';

export interface AccountRecord {
  id: string;
  name: string;
  token_id: string;
  meta: Record<string, unknown>;
  sso: Record<string, unknown>;
  notification_templates: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  version: number;
}

export const accountKey = (id: string) => ({ pk: `ACCOUNT#${id}`, sk: '#' });
export const BOOTSTRAP_KEY = { pk: 'SYSTEM', sk: 'BOOTSTRAP' };

export async function getAccount(id: string): Promise<AccountRecord | null> {
  const item = await getItem(accountKey(id));
  return item ? fromItem<AccountRecord>(item) : null;
}

export async function putNewAccount(account: AccountRecord): Promise<void> {
  if (!(await putNew({ ...accountKey(account.id), ...account }))) throw new Error(`account ${account.id} exists`);
}

export async function saveAccount(account: AccountRecord): Promise<boolean> {
  return putIfVersion({ ...accountKey(account.id), ...account }, account.version - 1);
}

export async function bootstrapMarker(): Promise<{ account_id: string } | null> {
  const item = await getItem(BOOTSTRAP_KEY);
  return item ? { account_id: String(item.account_id) } : null;
}

/** Claims the right to create the first account; false when it was already claimed. */
export async function claimBootstrap(accountId: string): Promise<boolean> {
  return putNew({ ...BOOTSTRAP_KEY, account_id: accountId, created_at: new Date().toISOString() });
}
