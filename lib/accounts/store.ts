// Data access for accounts (lib/store/ACCESS-PATTERNS.md, "Platform entities").
//   account      ACCOUNT#<id> / #         gsi1: ACCOUNTS / <id>   (every account: the operator's recount
//                                         and the sweeper's counter repair walk them; never a request path)
//   first start  SYSTEM / BOOTSTRAP   records that the first account was created, so two processes
//                                     starting at once cannot both create one
import { finishEvent, prepareCreate, prepareUpdate, withoutCarried } from '../store/audit-carried';
import { fromItem, getItem, putIfVersion, putNew, queryItems } from '../store/items';
import type { AccountRecord } from './records';

const accountKey = (id: string) => ({ pk: `ACCOUNT#${id}`, sk: '#' });
const REGISTRY = 'ACCOUNTS';
const registryKeys = (id: string) => ({ gsi1pk: REGISTRY, gsi1sk: id });
const BOOTSTRAP_KEY = { pk: 'SYSTEM', sk: 'BOOTSTRAP' };

export async function getAccount(id: string, consistent = true): Promise<AccountRecord | null> {
  const item = await getItem(accountKey(id), consistent);
  return item ? fromItem<AccountRecord>(withoutCarried(item)) : null;
}

// Audited as `account` in its own trail (docs/api.md#audit-trail).
const auditTarget = (id: string) => ({ accountId: id, objectType: 'account', objectId: id });

export async function insertAccount(account: AccountRecord): Promise<void> {
  const item = { ...accountKey(account.id), ...registryKeys(account.id), ...account };
  const audit = await prepareCreate(accountKey(account.id), item, auditTarget(account.id));
  if (!(await putNew(item))) throw new Error(`account ${account.id} exists`);
  await finishEvent(audit);
}

export async function saveAccount(account: AccountRecord): Promise<boolean> {
  recent.delete(account.id);
  const item = { ...accountKey(account.id), ...registryKeys(account.id), ...account };
  const audit = await prepareUpdate(accountKey(account.id), item, auditTarget(account.id));
  if (!(await putIfVersion(item, account.version - 1))) return false;
  // This process sees its own change at once, though the recent read below is eventually consistent.
  recent.set(account.id, { at: Date.now(), account: Promise.resolve(account) });
  await finishEvent(audit);
  return true;
}

/** Accounts read within the last few seconds, for the many messages of a storm (templates). */
const recent = new Map<string, { at: number; account: Promise<AccountRecord | null> }>();
const RECENT_MS = 5_000;

/**
 * The account as read within the last 5 seconds (its notification templates for the pages of a
 * storm): one read per account and instance, not one per page. A change made in this process is
 * seen at once; one made by another instance within 5 seconds, so the read is eventually
 * consistent (half the units; it lags a write by about a second at most).
 */
export function getRecentAccount(id: string): Promise<AccountRecord | null> {
  const now = Date.now();
  const cached = recent.get(id);
  if (cached && now - cached.at < RECENT_MS) return cached.account;
  const account = getAccount(id, false);
  recent.set(id, { at: now, account });
  account.catch(() => recent.delete(id));
  if (recent.size > 1_000) recent.delete(recent.keys().next().value!);
  return account;
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
