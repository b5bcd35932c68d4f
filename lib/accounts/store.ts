// Data access for accounts (lib/store/ACCESS-PATTERNS.md, "Platform entities").
//   account      ACCOUNT#<id> / #         gsi1: ACCOUNTS / <id>   (every account: the operator's recount
//                                         and the sweeper's counter repair walk them; never a request path)
//   first start  SYSTEM / BOOTSTRAP   records that the first account was created, so two processes
//                                     starting at once cannot both create one
import { fromItem, getItem, putIfVersion, putNew, queryItems } from '../store/items';
import type { AccountRecord } from './records';

const accountKey = (id: string) => ({ pk: `ACCOUNT#${id}`, sk: '#' });
const REGISTRY = 'ACCOUNTS';
const registryKeys = (id: string) => ({ gsi1pk: REGISTRY, gsi1sk: id });
const BOOTSTRAP_KEY = { pk: 'SYSTEM', sk: 'BOOTSTRAP' };

export async function getAccount(id: string): Promise<AccountRecord | null> {
  const item = await getItem(accountKey(id));
  return item ? fromItem<AccountRecord>(item) : null;
}

export async function insertAccount(account: AccountRecord): Promise<void> {
  if (!(await putNew({ ...accountKey(account.id), ...registryKeys(account.id), ...account })))
    throw new Error(`account ${account.id} exists`);
}

export async function saveAccount(account: AccountRecord): Promise<boolean> {
  return putIfVersion({ ...accountKey(account.id), ...registryKeys(account.id), ...account }, account.version - 1);
}

export async function getBootstrapMarker(): Promise<{ account_id: string } | null> {
  const item = await getItem(BOOTSTRAP_KEY);
  return item ? { account_id: String(item.account_id) } : null;
}

/** Claims the right to create the first account; false when it was already claimed. */
export async function claimBootstrap(accountId: string): Promise<boolean> {
  return putNew({ ...BOOTSTRAP_KEY, account_id: accountId, created_at: new Date().toISOString() });
}

/** Account ids in order, from the one after `after` (or the first), at most `limit` of them. */
export async function listAccountIds(after: string | null, limit: number): Promise<string[]> {
  const items = await queryItems(REGISTRY, { index: 'gsi1', skBetween: [after ?? '0', '~'], limit: limit + 1 });
  return items
    .map((item) => String(item.gsi1sk))
    .filter((id) => id !== after)
    .slice(0, limit);
}
