// The `q` word index of alerts (lib/alerts/ACCESS-PATTERNS.md, "Consistency of the word index"):
// one item per alert and 3-character group of its words, with the alert's word list.
//   word   A#<acc>#ALERT#W#<first 3 characters> / <alert id>   {w: words, a: word list, v: version}
// Written BEFORE the alert write that needs them and removed AFTER the write that drops them: a
// crash in between leaves only extra word items, never a missing one. Reads check every candidate
// against the alert (its words, its presence) and repair what they meet (rewriteWordItems,
// dropStaleWordItem).
import { DeleteCommand, QueryCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { putIndexItems } from '../store/grouped-writes';
import { batchGet, isConditionFailure, putIfNotNewer, type Item, type WriteRequest } from '../store/items';
import { wordGroupsOf, wordItem, wordListOf, wordPartition } from './keys';
import type { AlertRecord } from './records';

/** How `q` splits words and groups them (the word index's own rules, for the list source). */
export { groupOf, GROUP_LENGTH, wordsOf } from './keys';

function sameWords(a: string[] | undefined, b: string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((word, i) => word === b[i]);
}

/** An alert's word item of one group, written conditionally: never over a later version's. */
function putWordItem(alert: AlertRecord, group: string, words: string[], listed: string[]): Promise<boolean> {
  const { v: _v, ...item } = wordItem(alert.account_id, alert.id, group, words, alert.version, listed);
  return putIfNotNewer(item, 'v', alert.version);
}

/**
 * A new alert's word items: nobody else writes them, one grouped BatchWrite (with whatever other
 * new items the same turn puts: a create's unrouted entry). They need only the alert's id, account,
 * version and text, so a create writes them beside its tiny id's reservation, before the insert.
 */
export async function writeNewWordItems(
  alert: Pick<AlertRecord, 'account_id' | 'id' | 'version' | 'title' | 'description'>,
): Promise<void> {
  const listed = wordListOf(alert);
  await putIndexItems(
    [...wordGroupsOf(alert)].map(([group, words]) => wordItem(alert.account_id, alert.id, group, words, alert.version, listed)),
  );
}

/** The word items `next` needs that `before` did not have (every one when the word list changed: each
 * item carries it), written conditionally (never over a later version's); returns the groups to
 * remove once `next` is stored (deleteWordItems). */
export async function writeWordItemsFor(before: AlertRecord | null, next: AlertRecord): Promise<string[]> {
  const wanted = wordGroupsOf(next);
  const had = before ? wordGroupsOf(before) : new Map<string, string[]>();
  const listed = wordListOf(next);
  const listChanged = !before || !sameWords(wordListOf(before), listed);
  const changed = [...wanted].filter(([group, words]) => listChanged || !sameWords(had.get(group), words));
  if (!before) {
    await writeNewWordItems(next);
  } else if (changed.length > 0) {
    await Promise.all(changed.map(([group, words]) => putWordItem(next, group, words, listed)));
  }
  return [...had.keys()].filter((group) => !wanted.has(group));
}

/** Deletes a word item written by a version before `beforeVersion` (none when undefined: the alert is gone). */
async function deleteWordItem(accountId: string, alertId: string, group: string, beforeVersion?: number): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: { pk: wordPartition(accountId, group), sk: alertId },
        ConditionExpression: beforeVersion === undefined ? undefined : 'attribute_not_exists(#v) OR #v < :v',
        ExpressionAttributeNames: beforeVersion === undefined ? undefined : { '#v': 'v' },
        ExpressionAttributeValues: beforeVersion === undefined ? undefined : { ':v': beforeVersion },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Removes these groups' word items of an alert, those written before `beforeVersion` (every one
 * when undefined: the alert is gone). */
export async function deleteWordItems(accountId: string, alertId: string, groups: Iterable<string>, beforeVersion?: number): Promise<void> {
  await Promise.all([...groups].map((group) => deleteWordItem(accountId, alertId, group, beforeVersion)));
}

/** The groups an alert has word items in. */
export function wordGroupNamesOf(alert: AlertRecord): string[] {
  return [...wordGroupsOf(alert).keys()];
}

/** Every word item of an alert as put requests (the bulk import: ids are new, nobody else writes them). */
export function wordItemRequests(alert: AlertRecord): WriteRequest[] {
  const listed = wordListOf(alert);
  return [...wordGroupsOf(alert)].map(([group, words]) => ({
    PutRequest: { Item: wordItem(alert.account_id, alert.id, group, words, alert.version, listed) },
  }));
}

/** Rewrites every word item of an alert, never over a later version's (the reindex). */
export async function rewriteAllWordItems(alert: AlertRecord): Promise<void> {
  const listed = wordListOf(alert);
  await Promise.all([...wordGroupsOf(alert)].map(([group, words]) => putWordItem(alert, group, words, listed)));
}

/** The word items of one group: alert id → its words of that group, newest first, at most `limit`
 * (null when the group holds more: the caller's budget). */
export async function readWordGroup(accountId: string, group: string, limit: number): Promise<Map<string, string[]> | null> {
  const entries = await readWordEntries(accountId, group, limit, false);
  return entries && new Map([...entries].map(([id, entry]) => [id, entry.words]));
}

export interface WordEntry {
  /** The alert's words of the group. */
  words: string[];
  /** The alert's word list (wordListOf), space-separated; absent on an item written before the lists existed. */
  listed?: string;
}

/** readWordGroup with each item's word list too (`q` of several words: ~3× the bytes read). */
export async function readWordEntries(
  accountId: string,
  group: string,
  limit: number,
  withLists = true,
): Promise<Map<string, WordEntry> | null> {
  const out = new Map<string, WordEntry>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': wordPartition(accountId, group) },
        ProjectionExpression: withLists ? 'sk, w, a' : 'sk, w',
        ScanIndexForward: false,
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (page.Items ?? []) as Item[]) {
      out.set(String(item.sk), { words: (item.w as string[] | undefined) ?? [], listed: typeof item.a === 'string' ? item.a : undefined });
    }
    if (out.size > limit) return null;
    startKey = page.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (startKey);
  return out;
}

/** The words of one group of each of these alerts (absent: the alert has no word item there): one
 * BatchGet per 100 keys. */
export async function readWordItems(accountId: string, group: string, alertIds: string[]): Promise<Map<string, string[]>> {
  const found = await batchGet(alertIds.map((id) => ({ pk: wordPartition(accountId, group), sk: id })));
  const out = new Map<string, string[]>();
  for (const item of found.values()) out.set(String(item.sk), (item.w as string[] | undefined) ?? []);
  return out;
}

/** Read repair of an alert that is there but no longer what its word items say: its items of these
 * groups rewritten from the alert as it is (or removed where it has no word of the group any more),
 * never over a later version's. */
export async function rewriteWordItems(alert: AlertRecord, groups: string[]): Promise<void> {
  const wanted = wordGroupsOf(alert);
  const listed = wordListOf(alert);
  await Promise.all(
    groups.map((group) => {
      const words = wanted.get(group);
      if (!words) return deleteWordItem(alert.account_id, alert.id, group, alert.version + 1);
      return putWordItem(alert, group, words, listed);
    }),
  );
}

/** Read repair: removes a word item found not to hold for its alert (absent, or its words changed). */
export async function dropStaleWordItem(accountId: string, alertId: string, group: string, alertVersion?: number): Promise<void> {
  await deleteWordItem(accountId, alertId, group, alertVersion === undefined ? undefined : alertVersion + 1);
}
