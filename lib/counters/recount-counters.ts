// Counters that can be trusted (issue 9): recounting every counter of an account, or of every account
// (the operator's `npm run admin -- recount`), and the sweeper's repair of one counter item per run,
// walking through every account and type in turn. The engine is lib/store/recount.ts.
import { listAccountIds } from '../accounts/store';
import { recountCreatedBuckets } from '../alerts/created-at-store';
import { logger } from '../log';
import { recountCounter, typesToRecount, type CounterSet, type RecountOptions, type RecountResult } from '../store/recount';
import './counted-stores';
import { getRecountCursor, saveRecountCursor } from './store';

/** Every counter item of one account, recounted and repaired. */
export async function recountAccount(accountId: string, options: RecountOptions = {}): Promise<RecountResult[]> {
  const results: RecountResult[] = [];
  for (const type of await typesToRecount(accountId)) results.push(await recountCounter(accountId, type, options));
  // The alerts' created_at buckets are counter items of their own (lib/alerts/ACCESS-PATTERNS.md).
  results.push({ type: 'ALERT created_at buckets', ...(await recountCreatedBuckets(accountId, options)) });
  return results;
}

/** Every account, page by page (the registry of accounts, a Query). */
export async function* allAccountIds(): AsyncGenerator<string> {
  let after: string | null = null;
  for (;;) {
    const page = await listAccountIds(after, 100);
    for (const id of page) yield id;
    if (page.length < 100) return;
    after = page[page.length - 1];
  }
}

/** What the sweeper reads in one run at most: a larger partition is left to the operator's recount. */
export const SWEEP_MAX_ITEMS = 20_000;

export interface RepairRun {
  account_id: string;
  result: RecountResult;
}

/**
 * The sweeper's share: the counter item after the one repaired last (the next type of the account, or
 * the first of the next account, back to the first account after the last). One item per run keeps a
 * run cheap; a partition past SWEEP_MAX_ITEMS is skipped with a warning naming the command.
 */
export async function repairNextCounter(options: RecountOptions = {}): Promise<RepairRun | null> {
  const cursor = await getRecountCursor();
  let accountId = cursor?.account_id ?? (await listAccountIds(null, 1))[0];
  if (!accountId) return null;
  let types = await typesToRecount(accountId);
  let type: CounterSet | undefined = cursor ? types.find((t) => t > cursor.type) : types[0];
  if (!cursor || type === undefined) {
    if (cursor) accountId = (await listAccountIds(cursor.account_id, 1))[0] ?? (await listAccountIds(null, 1))[0];
    types = await typesToRecount(accountId);
    type = types[0];
  }
  if (type === undefined) return null;
  const result = await recountCounter(accountId, type, { maxItems: SWEEP_MAX_ITEMS, attempts: 1, ...options });
  await saveRecountCursor({ account_id: accountId, type });
  if (result.status === 'repaired') logger.warn('sweeper: counters repaired', { accountId, type, corrections: result.corrections });
  if (result.status === 'too-large') {
    logger.warn('sweeper: counters too large to recount in a sweep; run `npm run admin -- recount --account`', { accountId, type });
  }
  if (result.status === 'unknown-type') logger.error('sweeper: a counter item of a type no store registers', { accountId, type });
  return { account_id: accountId, result };
}
