// Data access for calendar feeds (lib/calendars/ACCESS-PATTERNS.md).
//   feed    CALFEED#<token hash> / #                               → account, scope, owner
//   link    A#<acc>#CALFEED#<SKD|ACU>#<owner id> / <token hash>    (revocation finds every address)
import { deleteItem, fromItem, getItem, putItem, putNew, queryItems } from '../store/items';
import type { CalendarFeedRecord, CalendarScope } from './records';

const feedKey = (hash: string) => ({ pk: `CALFEED#${hash}`, sk: '#' });
const ownerPartition = (accountId: string, scope: CalendarScope, ownerId: string) =>
  `A#${accountId}#CALFEED#${scope === 'schedule' ? 'SKD' : 'ACU'}#${ownerId}`;

/** Stores a feed: its owner's link first, so that no token item exists that revocation cannot find.
 * False when the token is already in use (256 random bits: never in practice). */
export async function insertCalendarFeed(record: CalendarFeedRecord): Promise<boolean> {
  await putItem({ pk: ownerPartition(record.account_id, record.scope, record.owner_id), sk: record.token_hash });
  return putNew({ ...feedKey(record.token_hash), ...record });
}

export async function getCalendarFeed(hash: string): Promise<CalendarFeedRecord | null> {
  const item = await getItem(feedKey(hash));
  return item ? fromItem<CalendarFeedRecord>(item) : null;
}

/** Removes every address of one schedule or person; answers how many there were. */
export async function removeCalendarFeedsOf(accountId: string, scope: CalendarScope, ownerId: string): Promise<number> {
  const partition = ownerPartition(accountId, scope, ownerId);
  const links = await queryItems(partition);
  await Promise.all(
    links.map(async (link) => {
      await deleteItem(feedKey(String(link.sk)));
      await deleteItem({ pk: partition, sk: String(link.sk) });
    }),
  );
  return links.length;
}
