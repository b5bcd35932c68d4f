// Where an alert is findable besides its own key, derived in this one place so that every write of
// an alert (create, transition, update, routing, delete, bulk import) keeps them in step.
// The table of patterns → keys is lib/alerts/ACCESS-PATTERNS.md.
import { createHash } from 'node:crypto';
import { partitionOf, ENTITY_TYPES } from '../store/items';
import type { AlertRecord, AlertStatus, Urgency } from './records';

const TYPE = ENTITY_TYPES.alert;

/** Key values longer than this are hashed: an index key may hold at most 2048 bytes, and
 * third-party ids and tags come from senders we do not control. */
const MAX_KEY_VALUE = 256;

function keyValue(value: string): string {
  return value.length <= MAX_KEY_VALUE ? value : `H#${createHash('sha256').update(value).digest('hex')}`;
}

export const alertPartition = (accountId: string) => partitionOf(accountId, TYPE);
export const statusPartition = (accountId: string, status: AlertStatus | string) =>
  `${alertPartition(accountId)}#STATUS#${status}`;
export const urgencyPartition = (accountId: string, urgency: Urgency | string) =>
  `${alertPartition(accountId)}#URGENCY#${urgency}`;
export const thirdpartyPartition = (accountId: string, thirdpartyId: string) =>
  `${alertPartition(accountId)}#TP#${keyValue(thirdpartyId)}`;

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
 * several of (teams, tags) or that mark a small subset (incidents, broadcasts). A link partition
 * lists the alert ids with that value, newest last, so a filtered page is one Query + one BatchGet.
 */
export type LinkKind = 'team' | 'tag' | 'incident' | 'subtype';

export function linkPartition(accountId: string, kind: LinkKind, value: string): string {
  return `${alertPartition(accountId)}#L#${kind}#${keyValue(value)}`;
}

export interface Link {
  kind: LinkKind;
  value: string;
}

export function isIncident(alert: Pick<AlertRecord, 'meta'>): boolean {
  return alert.meta?.incident === true;
}

/** Teams an alert belongs to: those it was sent to and the one it is assigned to now. */
export function teamsOf(alert: AlertRecord): string[] {
  const teams = new Set(alert.destination_team_ids);
  if (alert.assigned_team_id) teams.add(alert.assigned_team_id);
  return [...teams];
}

export function linksOf(alert: AlertRecord): Link[] {
  const links: Link[] = teamsOf(alert).map((value) => ({ kind: 'team', value }));
  for (const tag of new Set(alert.tag_list)) links.push({ kind: 'tag', value: tag });
  if (isIncident(alert)) links.push({ kind: 'incident', value: 'true' });
  if (alert.subtype && alert.subtype !== 'alert') links.push({ kind: 'subtype', value: alert.subtype });
  return links;
}

export function linkItem(accountId: string, link: Link, alertId: string) {
  return { pk: linkPartition(accountId, link.kind, link.value), sk: alertId };
}

/**
 * The exact counters an alert belongs to besides `total` (lib/store/counters.ts). Tags and
 * third-party ids have no counter: their values are unbounded and would outgrow the counter item;
 * their totals are counted from their (small) index partitions instead.
 */
export function alertCounts(alert: AlertRecord): string[] {
  const counts = [`status:${alert.status}`, `urgency:${alert.urgency}`];
  for (const team of teamsOf(alert)) counts.push(`team:${team}`);
  if (isIncident(alert)) counts.push('incident');
  if (alert.subtype && alert.subtype !== 'alert') counts.push(`subtype:${alert.subtype}`);
  return counts;
}
