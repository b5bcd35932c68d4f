// Where an alert is findable besides its own key, derived in this one place so that every write of
// an alert (create, transition, update, routing, delete, bulk import) keeps them in step. Only
// lib/alerts/store.ts reads this file; the table of patterns → keys is lib/alerts/ACCESS-PATTERNS.md.
import { createHash } from 'node:crypto';
import { typeOf } from '../entities';
import { partitionOf } from '../store/items';
import { isIncident, teamsOf, type AlertRecord, type AlertStatus, type Urgency } from './records';

const TYPE = typeOf('alert');

/** Key values longer than this are hashed: an index key may hold at most 2048 bytes, and
 * third-party ids and tags come from senders we do not control. */
const MAX_KEY_VALUE = 256;

function keyValue(value: string): string {
  return value.length <= MAX_KEY_VALUE ? value : `H#${createHash('sha256').update(value).digest('hex')}`;
}

export const alertPartition = (accountId: string) => partitionOf(accountId, TYPE);
export const statusPartition = (accountId: string, status: AlertStatus | string) => `${alertPartition(accountId)}#STATUS#${status}`;
export const urgencyPartition = (accountId: string, urgency: Urgency | string) => `${alertPartition(accountId)}#URGENCY#${urgency}`;
export const thirdpartyPartition = (accountId: string, thirdpartyId: string) => `${alertPartition(accountId)}#TP#${keyValue(thirdpartyId)}`;

/** gsi1: status, gsi2: urgency, gsi3: third-party id (sparse). All sorted by alert id (ULID). */
export function alertIndexKeys(alert: AlertRecord): Record<string, string | undefined> {
  return {
    gsi1pk: statusPartition(alert.account_id, alert.status),
    gsi1sk: alert.id,
    gsi2pk: urgencyPartition(alert.account_id, alert.urgency),
    gsi2sk: alert.id,
    gsi3pk: alert.thirdparty_id ? thirdpartyPartition(alert.account_id, alert.thirdparty_id) : undefined,
    gsi3sk: alert.thirdparty_id ? alert.id : undefined,
  };
}

/**
 * Link items: one small item per (attribute value, alert) for the attributes an alert can hold
 * several of (teams, tags) or that mark a small subset (incidents, broadcasts), and its tiny id. A link partition
 * lists the alert ids with that value, newest last, so a filtered page is one Query + one BatchGet.
 */
export type LinkKind = 'team' | 'tag' | 'incident' | 'subtype' | 'tiny';

export function linkPartition(accountId: string, kind: LinkKind, value: string): string {
  return `${alertPartition(accountId)}#L#${kind}#${keyValue(value)}`;
}

export interface Link {
  kind: LinkKind;
  value: string;
}

export function linksOf(alert: AlertRecord): Link[] {
  const links: Link[] = teamsOf(alert).map((value) => ({ kind: 'team', value }));
  for (const tag of new Set(alert.tag_list)) links.push({ kind: 'tag', value: tag });
  if (isIncident(alert)) links.push({ kind: 'incident', value: 'true' });
  if (alert.subtype && alert.subtype !== 'alert') links.push({ kind: 'subtype', value: alert.subtype });
  // The number people see (`/alert/4/acknowledge`): a path's tiny id finds the alert in one Query.
  if (alert.tiny_id) links.push({ kind: 'tiny', value: String(alert.tiny_id) });
  return links;
}

export function linkItem(accountId: string, link: Link, alertId: string) {
  return { pk: linkPartition(accountId, link.kind, link.value), sk: alertId };
}

/** The counter that counts the alerts holding one value of an indexed attribute (none for tags and
 * third-party ids). */
export type IndexKind = 'status' | 'urgency' | 'thirdparty' | LinkKind;

export const COUNTER: Partial<Record<IndexKind, (value: string) => string>> = {
  status: (v) => `status:${v}`,
  urgency: (v) => `urgency:${v}`,
  team: (v) => `team:${v}`,
  incident: () => 'incident',
  subtype: (v) => `subtype:${v}`,
};

/**
 * The exact counters an alert belongs to besides `total` (lib/store/counters.ts). Tags and
 * third-party ids have no counter: their values are unbounded and would outgrow the counter item;
 * their totals are counted from their (small) index partitions instead.
 */
export function alertCounts(alert: AlertRecord): string[] {
  const counts = [COUNTER.status!(alert.status), COUNTER.urgency!(alert.urgency)];
  for (const team of teamsOf(alert)) counts.push(COUNTER.team!(team));
  if (isIncident(alert)) counts.push(COUNTER.incident!('true'));
  if (alert.subtype && alert.subtype !== 'alert') counts.push(COUNTER.subtype!(alert.subtype));
  return counts;
}
