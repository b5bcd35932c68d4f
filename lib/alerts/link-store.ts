// Link items of alerts (lib/alerts/ACCESS-PATTERNS.md, "Link kinds"): one small item per attribute
// value and alert, so a page filtered by a team, a tag, the incident flag, a subtype or a destination
// team with a status is one Query of its partition and one BatchGet of the alerts. (A tiny id's link,
// `tiny`, is written no more: gsi5 finds it; those of alerts stored before are deleted with them.)
//   link   A#<acc>#ALERT#L#<kind>#<value> / <alert id>
// Links follow the alert: written after the alert write that needs them and removed after the one
// that drops them (lib/alerts/store.ts), in the order asked (a later write's links win).
import { queryItems, countItems, type WriteRequest } from '../store/items';
import { writeInOrder } from '../store/grouped-writes';
import { dteamValue, formerTinyLink, linkItem, linkPartition, linksOf, type LinkKind } from './keys';
import { ALERT_STATUSES, teamsOf, type AlertRecord } from './records';

export type { LinkKind };

/** The puts and deletes that move an alert's links from `before` to `after` (null: absent). */
export function linkRequests(before: AlertRecord | null, after: AlertRecord | null): WriteRequest[] {
  const key = (kind: string, value: string) => `${kind}\u0000${value}`;
  const old = new Map((before ? linksOf(before) : []).map((l) => [key(l.kind, l.value), l]));
  const next = new Map((after ? linksOf(after) : []).map((l) => [key(l.kind, l.value), l]));
  const requests: WriteRequest[] = [];
  const record = (after ?? before)!;
  for (const [k, link] of next) {
    if (!old.has(k)) requests.push({ PutRequest: { Item: linkItem(record.account_id, link, record.id) } });
  }
  for (const [k, link] of old) {
    if (!next.has(k)) requests.push({ DeleteRequest: { Key: linkItem(record.account_id, link, record.id) } });
  }
  // An alert stored before holds a `tiny` link: it goes with the alert.
  const tinyLink = before && !after ? formerTinyLink(before) : null;
  if (tinyLink) requests.push({ DeleteRequest: { Key: linkItem(record.account_id, tinyLink, record.id) } });
  // A team the alert leaves may hold a `team` link written before destination teams had none.
  if (before) {
    const remaining = new Set(after ? teamsOf(after) : []);
    for (const team of new Set(before.destination_team_ids)) {
      if (!remaining.has(team) && !old.has(key('team', team)))
        requests.push({ DeleteRequest: { Key: linkItem(record.account_id, { kind: 'team', value: team }, record.id) } });
    }
  }
  return requests;
}

/** Writes the link changes from `before` to `after`, after the alert write they follow. */
export async function syncLinks(before: AlertRecord | null, after: AlertRecord | null): Promise<void> {
  const requests = linkRequests(before, after);
  if (requests.length > 0) await writeInOrder(requests);
}

/**
 * Every link the alert should have, and the removal of its destination-team links of the other
 * statuses and of the `team` links of its destination teams written before (the reindex: a crash
 * between an alert write and its link writes is repaired here).
 */
export async function rewriteLinks(alert: AlertRecord): Promise<void> {
  const requests: WriteRequest[] = linksOf(alert).map((link) => ({ PutRequest: { Item: linkItem(alert.account_id, link, alert.id) } }));
  // gsi5 finds a tiny id now: the link written before goes.
  const tinyLink = formerTinyLink(alert);
  if (tinyLink) requests.push({ DeleteRequest: { Key: linkItem(alert.account_id, tinyLink, alert.id) } });
  for (const team of new Set(alert.destination_team_ids)) {
    // Written before for every team; a destination team's alerts are its dteam links now.
    requests.push({ DeleteRequest: { Key: linkItem(alert.account_id, { kind: 'team', value: team }, alert.id) } });
    for (const status of ALERT_STATUSES) {
      if (status !== alert.status)
        requests.push({ DeleteRequest: { Key: linkItem(alert.account_id, { kind: 'dteam', value: dteamValue(team, status) }, alert.id) } });
    }
  }
  await writeInOrder(requests);
}

/** Alert ids of a link partition, newest first unless `forward`; `limit` bounds the read (a page). */
export async function listLinkedAlertIds(
  accountId: string,
  kind: LinkKind,
  value: string,
  limit?: number,
  forward = false,
): Promise<string[]> {
  const items = await queryItems(linkPartition(accountId, kind, value), { forward, limit });
  return items.map((item) => String(item.sk));
}

/** How many alerts a link partition lists (for the values that have no counter: tags). Reads keys only. */
export async function countLinkedAlerts(accountId: string, kind: LinkKind, value: string): Promise<number> {
  return countItems(linkPartition(accountId, kind, value));
}
