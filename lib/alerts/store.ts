// Data access for the alert item itself: its codec (defaults left out), create, versioned save,
// remove, status transitions as one conditional UpdateItem, and the reads of the alert by its indexes.
// What follows an alert write lives in its own store file, called from here so every write keeps
// them in step: links (link-store.ts), the `q` word index (word-store.ts), the created_at buckets
// (created-at-store.ts); whole-account writes are bulk-store.ts. Keys come from keys.ts; the
// patterns they serve are lib/alerts/ACCESS-PATTERNS.md.
//   alert         A#<acc>#ALERT / <id>      gsi1 status, gsi2 urgency, gsi3 third-party id, gsi4 status+urgency, gsi5 tiny id, gsi6 updated_at
//   counters      A#<acc>#COUNT / ALERT    total, status:*, urgency:*, team:*, incident, subtype:*, su:*, dteam:*
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import { entityStore } from '../store/entity-store';
import { addCounts } from '../store/grouped-writes';
import { fromItem, isConditionFailure, queryItems, type Item, type QueryOptions } from '../store/items';
import { createdRangeQuery, moveBuckets, type CreatedRange } from './created-at-store';
import {
  alertCounts,
  alertIndexKeys,
  byTinyIdPartition,
  byUpdatePartition,
  COUNTER,
  statusPartition,
  statusUrgencyPartition,
  thirdpartyPartition,
  updateSortKey,
  urgencyPartition,
  type IndexKind,
} from './keys';
import { listLinkedAlertIds, syncLinks } from './link-store';
import type { AlertRecord, AlertStatus } from './records';
import { deleteWordItems, wordGroupNamesOf, writeWordItemsFor } from './word-store';

export type { IndexKind };

/** Fields that may be missing on a stored alert (written before they existed, or set only once,
 * like acknowledged_at, which is absent rather than null so a transition can use if_not_exists). */
const DEFAULTS: Partial<AlertRecord> = {
  description: '',
  subtype: 'alert',
  type: null,
  tag_list: [],
  thirdparty_id: null,
  dedup_keys: [],
  dedup_count: 1,
  meta: {},
  destination_team_ids: [],
  destination_router_ids: [],
  destination_account_user_ids: [],
  destination_schedule_ids: [],
  destination_users: {},
  assigned_team_id: null,
  assigned_user_id: null,
  source_user_id: null,
  source_log_id: null,
  parent_id: null,
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  archived_at: null,
  archived_by: null,
  routed_at: null,
  routing_log_id: null,
  assignments: [],
  routing: null,
  handoffs: [],
  additional_data: [],
  stakeholder_ids: [],
};

/** A fresh copy of every default (new arrays and objects each time, so no two alerts share one). */
export function alertDefaults(): Required<typeof DEFAULTS> {
  const copy: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(DEFAULTS)) {
    copy[field] = Array.isArray(value) ? [] : value !== null && typeof value === 'object' ? {} : value;
  }
  return copy as Required<typeof DEFAULTS>;
}

export function decodeAlert(item: Item): AlertRecord {
  return { ...alertDefaults(), ...fromItem<AlertRecord>(item) };
}

/**
 * The record as stored: attributes that hold their default (null, [], {}, …) are left out and
 * restored by decodeAlert. A typical alert item has half the attributes, which every write, every
 * returned item and every index copy pays for; and a missing acknowledged_at is what lets the first
 * acknowledgement set it with if_not_exists.
 */
function storable(alert: AlertRecord): AlertRecord {
  const stored: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(alert)) {
    const fallback = (DEFAULTS as Record<string, unknown>)[field];
    if (fallback !== undefined && isDefault(value, fallback)) continue;
    stored[field] = value;
  }
  return stored as unknown as AlertRecord;
}

function isDefault(value: unknown, fallback: unknown): boolean {
  if (value === fallback) return true;
  if (Array.isArray(fallback)) return Array.isArray(value) && value.length === 0;
  if (fallback !== null && typeof fallback === 'object') {
    return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
  }
  return false;
}

const alertStore = entityStore<AlertRecord>({
  kind: 'alert',
  indexKeys: alertIndexKeys,
  counts: alertCounts,
  encode: storable,
  decode: decodeAlert,
});

const TYPE = alertStore.type;
/** The alerts' stored type (their counter item's sort key). */
export const ALERT_TYPE = TYPE;
/** The key of an alert item. */
export const alertKey = alertStore.key;
/** The whole stored item of an alert: keys, index keys and its attributes without defaults. */
export const alertItem = alertStore.item;

export const getAlert = alertStore.get;
/** Reads alerts by id in one round trip per 100, in the order asked; absent ones are left out. */
export const getAlerts = alertStore.getMany;
export const nextAlertTinyId = alertStore.nextTinyId;
export const readAlertCounts = alertStore.counts;
/** The account's alerts in creation order (newest first unless `forward`), at most `limit`. */
export const listAlerts = alertStore.list;

/** Stores a new alert with its counters, links and word items; false when an alert with that id exists. */
export async function insertAlert(alert: AlertRecord): Promise<boolean> {
  await writeWordItemsFor(null, alert);
  const inserted = await alertStore.insert(alert);
  if (inserted) await Promise.all([syncLinks(null, alert), moveBuckets(null, alert)]);
  return inserted;
}

/**
 * Replaces an alert read at version `next.version - 1` (the caller raised it); false when another
 * write came in between (the caller re-reads and retries, or answers 409). Counters and links move
 * with it.
 */
export async function saveAlert(before: AlertRecord, next: AlertRecord): Promise<boolean> {
  // The counters and the links move side by side once the conditional put has won (routing that
  // assigns a team adds a team link and a team count: one round trip for both, not two).
  const dropped = await writeWordItemsFor(before, next);
  const saved = await alertStore.save(next);
  if (saved) {
    const deltas = countDeltas(alertCounts(before), alertCounts(next));
    await Promise.all([
      Object.keys(deltas).length > 0 ? addCounts(next.account_id, TYPE, deltas) : undefined,
      syncLinks(before, next),
      moveBuckets(before, next),
      deleteWordItems(next.account_id, next.id, dropped, next.version),
    ]);
  }
  return saved;
}

function countDeltas(before: string[], after: string[]): Record<string, number> {
  const change: Record<string, number> = {};
  for (const name of before) change[name] = (change[name] ?? 0) - 1;
  for (const name of after) change[name] = (change[name] ?? 0) + 1;
  for (const name of Object.keys(change)) if (change[name] === 0) delete change[name];
  return change;
}

export async function removeAlert(accountId: string, alertId: string): Promise<AlertRecord | null> {
  const removed = await alertStore.remove(accountId, alertId);
  if (!removed) return null;
  await Promise.all([syncLinks(removed, null), moveBuckets(removed, null), deleteWordItems(accountId, alertId, wordGroupNamesOf(removed))]);
  return removed;
}

export interface StatusChange {
  /** Statuses the alert may be in for the change to apply: the condition of the write. */
  from: readonly AlertStatus[];
  to: AlertStatus;
  now: string;
  /** Further attributes set by the same write (acknowledged_by, resolved_at, …). */
  set?: Record<string, unknown>;
  /** Attributes set only when absent (acknowledged_at: only on the first acknowledgement). */
  setOnce?: Record<string, unknown>;
  /** Work to run once the write has applied, in parallel with the counter update (the timeline
   * log): a transition costs two round trips deep, not three. */
  alongside?: (before: AlertRecord, after: AlertRecord) => Promise<unknown>;
  /** Further alert counter deltas for the same counter update (the timeline entry's count). */
  counts?: Record<string, number>;
}

/**
 * A status transition as ONE conditional UpdateItem: it applies only while the stored status is one
 * of `from`, and raises `version` in the same write, so any read-modify-write that read the alert
 * before (an edit, a handoff, routing) loses its own version check and re-reads. The status is the
 * whole precondition: conditioning on a version too would need a read first and would turn a
 * harmless concurrent edit into a spurious 409. Only the attributes of the transition are written,
 * so a concurrent change of other attributes is never lost.
 * Returns the alert before and after the write, or null when the condition failed (absent alert or
 * another status) – the caller reads the alert to tell which.
 */
export async function changeStatus(
  accountId: string,
  alertId: string,
  change: StatusChange,
): Promise<{ before: AlertRecord; after: AlertRecord } | null> {
  const names: Record<string, string> = {
    '#pk': 'pk',
    '#status': 'status',
    '#gsi1pk': 'gsi1pk',
    '#gsi4pk': 'gsi4pk',
    '#gsi6sk': 'gsi6sk',
    '#version': 'version',
    '#updated_at': 'updated_at',
  };
  const values: Record<string, unknown> = {
    ':to': change.to,
    ':part': statusPartition(accountId, change.to),
    ':supart': statusUrgencyPartition(accountId, change.to),
    ':updsk': updateSortKey(change.now, alertId),
    ':one': 1,
    ':now': change.now,
  };
  const sets = [
    '#status = :to',
    '#gsi1pk = :part',
    '#gsi4pk = :supart',
    '#gsi6sk = :updsk',
    '#version = #version + :one',
    '#updated_at = :now',
  ];
  let n = 0;
  for (const [field, value] of Object.entries(change.set ?? {})) {
    names[`#s${n}`] = field;
    values[`:s${n}`] = value;
    sets.push(`#s${n} = :s${n}`);
    n++;
  }
  for (const [field, value] of Object.entries(change.setOnce ?? {})) {
    names[`#s${n}`] = field;
    values[`:s${n}`] = value;
    sets.push(`#s${n} = if_not_exists(#s${n}, :s${n})`);
    n++;
  }
  const allowed = change.from.map((status, i) => {
    values[`:f${i}`] = status;
    return `:f${i}`;
  });
  let old: Item;
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: alertStore.key(accountId, alertId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `attribute_exists(#pk) AND #status IN (${allowed.join(', ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_OLD',
      }),
    );
    old = out.Attributes as Item;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
  const before = decodeAlert(old);
  const after: AlertRecord = {
    ...before,
    ...(change.set as Partial<AlertRecord>),
    status: change.to,
    version: before.version + 1,
    updated_at: change.now,
  };
  for (const [field, value] of Object.entries(change.setOnce ?? {})) {
    const record = after as unknown as Record<string, unknown>;
    if (record[field] === null || record[field] === undefined) record[field] = value;
  }
  const deltas: Record<string, number> = { ...change.counts };
  for (const [name, n] of Object.entries(countDeltas(alertCounts(before), alertCounts(after)))) deltas[name] = (deltas[name] ?? 0) + n;
  // The destination-team links and the created_at buckets follow the status too: all in one round trip.
  await Promise.all([
    addCounts(accountId, TYPE, deltas),
    syncLinks(before, after),
    moveBuckets(before, after),
    change.alongside?.(before, after),
  ]);
  return { before, after };
}

/**
 * Raises dedup_count to `atLeast` when it is lower, in one conditional write: a redelivered request
 * that was already counted changes nothing. Returns the alert after the write, or null when the
 * count was already that high (or the alert is gone).
 */
export async function raiseDedup(accountId: string, alertId: string, atLeast: number, now: string): Promise<AlertRecord | null> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: alertStore.key(accountId, alertId),
        UpdateExpression: 'SET #count = :n, #version = #version + :one, #updated_at = :now, #gsi6sk = :updsk',
        ConditionExpression: 'attribute_exists(#pk) AND (attribute_not_exists(#count) OR #count < :n)',
        ExpressionAttributeNames: {
          '#pk': 'pk',
          '#count': 'dedup_count',
          '#version': 'version',
          '#updated_at': 'updated_at',
          '#gsi6sk': 'gsi6sk',
        },
        ExpressionAttributeValues: { ':n': atLeast, ':one': 1, ':now': now, ':updsk': updateSortKey(now, alertId) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return decodeAlert(out.Attributes as Item);
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

// ── reads by index ────────────────────────────────────────────────────────────────────────────

/** Alerts holding one value of an indexed attribute, in id order (newest first unless `forward`). */
export async function listAlertsWith(
  accountId: string,
  kind: IndexKind,
  value: string,
  forward: boolean,
  limit?: number,
): Promise<AlertRecord[]> {
  switch (kind) {
    case 'status':
      return alertStore.query(statusPartition(accountId, value), { index: 'gsi1', forward, limit });
    case 'urgency':
      return alertStore.query(urgencyPartition(accountId, value), { index: 'gsi2', forward, limit });
    case 'su': {
      // `<status>#<urgency>`: one range of the status's gsi4 partition (keys only).
      const [status, urgency] = value.split('#');
      return alertsOfKeys(accountId, statusUrgencyPartition(accountId, status), {
        index: 'gsi4',
        skBeginsWith: `${urgency}#`,
        forward,
        limit,
      });
    }
    case 'thirdparty': {
      const found = await listAlertsByThirdpartyId(accountId, value);
      return forward ? found.reverse() : found;
    }
    default:
      return getAlerts(accountId, await listLinkedAlertIds(accountId, kind, value, limit, forward));
  }
}

/** The counter of an indexed attribute's value (none for tags and third-party ids: their values are
 * unbounded). */
export function counterOf(kind: IndexKind): ((value: string) => string) | undefined {
  return COUNTER[kind];
}

/** Alerts with this third-party id, newest first (gsi3). Used by deduplication and the filter. */
export async function listAlertsByThirdpartyId(accountId: string, thirdpartyId: string): Promise<AlertRecord[]> {
  const found = await alertStore.query(thirdpartyPartition(accountId, thirdpartyId), { index: 'gsi3', forward: false });
  // Hashed long ids could in theory collide: keep exact matches only.
  return found.filter((alert) => alert.thirdparty_id === thirdpartyId);
}

/** The account's alerts by tiny id (gsi5) or by updated_at (gsi6), at most `limit`. */
export async function listAlertsInOrder(
  accountId: string,
  order: 'tiny_id' | 'updated_at',
  forward: boolean,
  limit: number,
): Promise<AlertRecord[]> {
  return order === 'tiny_id'
    ? alertsOfKeys(accountId, byTinyIdPartition(accountId), { index: 'gsi5', forward, limit })
    : alertsOfKeys(accountId, byUpdatePartition(accountId), { index: 'gsi6', forward, limit });
}

/** The alerts a keys-only index lists, in its order: the Query, then one BatchGet per 100 (an alert
 * changed in between is read as it is now). */
async function alertsOfKeys(accountId: string, partition: string, query: QueryOptions): Promise<AlertRecord[]> {
  const keys = await queryItems(partition, query);
  return getAlerts(
    accountId,
    keys.map((key) => String(key.sk)),
  );
}

/** Alerts created in a range (optionally of one status), in id order, at most `limit`. */
export async function listAlertsCreatedIn(accountId: string, range: CreatedRange, forward: boolean, limit: number): Promise<AlertRecord[]> {
  const found: AlertRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        ...createdRangeQuery(accountId, range),
        ScanIndexForward: forward,
        Limit: limit - found.length + 2,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (out.Items ?? []) as Item[]) if (found.length < limit) found.push(decodeAlert(item));
    startKey = out.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (startKey && found.length < limit);
  return found;
}
