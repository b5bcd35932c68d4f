// Data access for alerts: the only file that reads lib/alerts/keys.ts; the patterns the keys serve
// are lib/alerts/ACCESS-PATTERNS.md.
//   alert         A#<acc>#ALERT / <id>      gsi1 status, gsi2 urgency, gsi3 third-party id
//   link          A#<acc>#ALERT#L#<kind>#<value> / <alert id>    (teams, tags, incident, subtype)
//   counters      A#<acc>#COUNT / ALERT    total, status:*, urgency:*, team:*, incident, subtype:*, su:*, dteam:*
//   word          A#<acc>#ALERT#W#<first 3 characters> / <alert id>   {w: words, a: word list, v: version} (q)
//   buckets       A#<acc>#ALERT#CM / <YYYY-MM> {<DD>#<status>: n},  A#<acc>#ALERT#CD / <YYYY-MM-DD> {<HH>#<status>: n}
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulidBoundsOf } from '../ids';
import { db, tableName } from '../store/client';
import { adjustCounts, adjustFields, correctFields } from '../store/counters';
import { entityStore } from '../store/entity-store';
import { addCounts, addToCounterItem, putIndexItems, writeInOrder } from '../store/grouped-writes';
import {
  batchGet,
  batchWrite,
  countItems,
  fromItem,
  isConditionFailure,
  putIfNotNewer,
  queryAll,
  queryItems,
  type Item,
  type QueryOptions,
  type WriteRequest,
} from '../store/items';
import {
  alertCounts,
  alertIndexKeys,
  alertPartition,
  byTinyIdPartition,
  byUpdatePartition,
  COUNTER,
  createdBucketsOf,
  createdDayPartition,
  createdMonthPartition,
  dteamValue,
  linkItem,
  linkPartition,
  linksOf,
  statusPartition,
  statusUrgencyPartition,
  thirdpartyPartition,
  updateSortKey,
  urgencyPartition,
  wordGroupsOf,
  wordItem,
  wordListOf,
  wordPartition,
  type IndexKind,
  type LinkKind,
} from './keys';
import type { AlertRecord, AlertStatus } from './records';

export type { IndexKind, LinkKind };
/** How `q` splits words and groups them (the word index's own rules, for the list source). */
export { groupOf, GROUP_LENGTH, wordsOf } from './keys';

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

export const getAlert = alertStore.get;
/** Reads alerts by id in one round trip per 100, in the order asked; absent ones are left out. */
export const getAlerts = alertStore.getMany;
export const nextAlertTinyId = alertStore.nextTinyId;
export const readAlertCounts = alertStore.counts;
/** The account's alerts in creation order (newest first unless `forward`), at most `limit`. */
export const listAlerts = alertStore.list;

// ── link items ────────────────────────────────────────────────────────────────────────────────

function linkRequests(before: AlertRecord | null, after: AlertRecord | null): WriteRequest[] {
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
  return requests;
}

async function syncLinks(before: AlertRecord | null, after: AlertRecord | null): Promise<void> {
  const requests = linkRequests(before, after);
  if (requests.length > 0) await writeInOrder(requests);
}

// ── created_at buckets ────────────────────────────────────────────────────────────────────────
// Counted like the counters: an ADD right after the write they count, beside it (the same round trip
// as the counter ADD), group-committed per bucket item. A crash in between leaves a bucket off until
// the recount (recountCreatedBuckets).

type BucketDeltas = Map<string, { key: { pk: string; sk: string }; deltas: Record<string, number> }>;

function addBucketDeltas(into: BucketDeltas, alert: AlertRecord | null, sign: number): void {
  if (!alert) return;
  for (const { pk, sk, field } of createdBucketsOf(alert)) {
    const id = `${pk}|${sk}`;
    let entry = into.get(id);
    if (!entry) into.set(id, (entry = { key: { pk, sk }, deltas: {} }));
    entry.deltas[field] = (entry.deltas[field] ?? 0) + sign;
  }
}

function bucketDeltas(before: AlertRecord | null, after: AlertRecord | null): BucketDeltas {
  const deltas: BucketDeltas = new Map();
  addBucketDeltas(deltas, before, -1);
  addBucketDeltas(deltas, after, 1);
  for (const [id, entry] of deltas) {
    for (const [field, n] of Object.entries(entry.deltas)) if (n === 0) delete entry.deltas[field];
    if (Object.keys(entry.deltas).length === 0) deltas.delete(id);
  }
  return deltas;
}

/** Moves the created_at buckets from `before` to `after` (a new alert, a status change, a delete). */
async function moveBuckets(before: AlertRecord | null, after: AlertRecord | null): Promise<void> {
  await Promise.all([...bucketDeltas(before, after).values()].map(({ key, deltas }) => addToCounterItem(key, deltas)));
}

// ── writes ────────────────────────────────────────────────────────────────────────────────────

// ── word items (the `q` index) ────────────────────────────────────────────────────────────────
// Written BEFORE the alert write that needs them and removed AFTER the write that drops them: a
// crash in between leaves only extra word items, never a missing one. Reads check every candidate
// against the alert (its words, its presence) and delete the extras they meet.

function sameWords(a: string[] | undefined, b: string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((word, i) => word === b[i]);
}

/** The word items `next` needs that `before` did not have (every one when the word list changed: each
 * item carries it), written conditionally (never over a later version's); returns the groups to
 * remove once `next` is stored. */
async function writeWordsFor(before: AlertRecord | null, next: AlertRecord): Promise<string[]> {
  const wanted = wordGroupsOf(next);
  const had = before ? wordGroupsOf(before) : new Map<string, string[]>();
  const listed = wordListOf(next);
  const listChanged = !before || !sameWords(wordListOf(before), listed);
  const changed = [...wanted].filter(([group, words]) => listChanged || !sameWords(had.get(group), words));
  if (!before) {
    // A new alert: nobody else writes its word items, one grouped BatchWrite.
    await putIndexItems(changed.map(([group, words]) => wordItem(next.account_id, next.id, group, words, next.version, listed)));
  } else if (changed.length > 0) {
    await Promise.all(
      changed.map(([group, words]) => {
        const { v: _v, ...item } = wordItem(next.account_id, next.id, group, words, next.version, listed);
        return putIfNotNewer(item, 'v', next.version);
      }),
    );
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

/** Stores a new alert with its counters, links and word items; false when an alert with that id exists. */
export async function insertAlert(alert: AlertRecord): Promise<boolean> {
  await writeWordsFor(null, alert);
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
  const dropped = await writeWordsFor(before, next);
  const saved = await alertStore.save(next);
  if (saved) {
    const deltas = countDeltas(alertCounts(before), alertCounts(next));
    await Promise.all([
      Object.keys(deltas).length > 0 ? addCounts(next.account_id, TYPE, deltas) : undefined,
      syncLinks(before, next),
      moveBuckets(before, next),
      ...dropped.map((group) => deleteWordItem(next.account_id, next.id, group, next.version)),
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
  await Promise.all([
    syncLinks(removed, null),
    moveBuckets(removed, null),
    ...[...wordGroupsOf(removed).keys()].map((group) => deleteWordItem(accountId, alertId, group)),
  ]);
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

/** The alert that carries a tiny id (the number people see), or null: one strongly consistent Query of
 * its link partition. */
export async function alertIdOfTinyId(accountId: string, tinyId: number): Promise<string | null> {
  const [id] = await listLinkedAlertIds(accountId, 'tiny', String(tinyId), 1);
  return id ?? null;
}

/** How many alerts a link partition lists (for the values that have no counter: tags). Reads keys only. */
export async function countLinkedAlerts(accountId: string, kind: LinkKind, value: string): Promise<number> {
  return countItems(linkPartition(accountId, kind, value));
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

export interface CreatedRange {
  /** ISO datetimes, both inclusive (the stored created_at format). */
  from: string;
  to: string;
  /** Alert ids bounding the range: ULIDs carry their creation time (a little slack either side). */
  idFrom: string;
  idTo: string;
  /** Only alerts of this status (gsi1). */
  status?: string;
}

function createdRangeQuery(accountId: string, range: CreatedRange) {
  const byStatus = range.status !== undefined;
  return {
    TableName: tableName(),
    IndexName: byStatus ? 'gsi1' : undefined,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :a AND :b',
    FilterExpression: '#created BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': byStatus ? 'gsi1pk' : 'pk', '#sk': byStatus ? 'gsi1sk' : 'sk', '#created': 'created_at' },
    ExpressionAttributeValues: {
      ':pk': byStatus ? statusPartition(accountId, range.status!) : alertPartition(accountId),
      ':a': range.idFrom,
      ':b': range.idTo,
      ':from': range.from,
      ':to': range.to,
    },
    ConsistentRead: byStatus ? undefined : true,
  };
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

/** COUNT Queries of an id range (cost: the alerts in it): the partial hours at a range's edges. */
async function countCreatedByQuery(accountId: string, range: CreatedRange): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...createdRangeQuery(accountId, range), Select: 'COUNT', ExclusiveStartKey: startKey }));
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (startKey);
  return count;
}

/** Slack between an alert's created_at and the time in its ULID (both taken when it is created;
 * importAlerts callers keep them this close). */
export const CREATED_SLACK_MS = 60_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The part [fromMs, toMs] (inclusive) of a range, as an id range with the slack. */
function subRange(range: CreatedRange, fromMs: number, toMs: number): CreatedRange {
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    idFrom: ulidBoundsOf(fromMs - CREATED_SLACK_MS).low,
    idTo: ulidBoundsOf(toMs + CREATED_SLACK_MS).high,
    status: range.status,
  };
}

/** Sums the bucket fields `<unit>#<status>` whose unit (day or hour) starts in [fromMs, toMs). */
function sumBuckets(item: Item | undefined, unitStart: (unit: string) => number, fromMs: number, toMs: number, status?: string): number {
  let sum = 0;
  for (const [field, value] of Object.entries(item ?? {})) {
    if (typeof value !== 'number') continue;
    const at = field.indexOf('#');
    if (at < 0 || (status !== undefined && field.slice(at + 1) !== status)) continue;
    const start = unitStart(field.slice(0, at));
    if (start >= fromMs && start < toMs) sum += value;
  }
  return sum;
}

/**
 * How many alerts were created in a range (optionally of one status), from the created_at buckets:
 * whole days from the month items (one Query of the months the range covers), whole hours from at
 * most two day items (one BatchGet), and only the partial hours at the two edges counted from the
 * alerts (COUNT Queries of those hours). All of it in parallel: one round trip deep, and the cost
 * is the months of the range plus two hours of alerts, whatever the account holds.
 */
export async function countAlertsCreatedIn(accountId: string, range: CreatedRange): Promise<number> {
  const fromMs = Date.parse(range.from);
  const toMs = Date.parse(range.to);
  if (!(fromMs <= toMs)) return 0;
  // Whole hours [firstHour, endHour); what lies outside them is at most two partial hours.
  const firstHour = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const endHour = Math.floor((toMs + 1) / HOUR_MS) * HOUR_MS;
  if (firstHour >= endHour) return countCreatedByQuery(accountId, range);
  const parts: Array<Promise<number>> = [];
  if (fromMs < firstHour) parts.push(countCreatedByQuery(accountId, subRange(range, fromMs, firstHour - 1)));
  if (endHour <= toMs) parts.push(countCreatedByQuery(accountId, subRange(range, endHour, toMs)));

  // Whole days [firstDay, endDay) from the month items; the whole hours around them from day items.
  const firstDay = Math.ceil(firstHour / DAY_MS) * DAY_MS;
  const endDay = Math.floor(endHour / DAY_MS) * DAY_MS;
  const hourSpans: Array<[number, number]> = [];
  if (firstDay < endDay) {
    if (firstHour < firstDay) hourSpans.push([firstHour, firstDay]);
    if (endDay < endHour) hourSpans.push([endDay, endHour]);
  } else {
    // No whole day: the hours lie in one day or across one midnight.
    const midnight = Math.floor(firstHour / DAY_MS) * DAY_MS + DAY_MS;
    if (midnight < endHour) hourSpans.push([firstHour, midnight], [midnight, endHour]);
    else hourSpans.push([firstHour, endHour]);
  }
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  if (hourSpans.length > 0) {
    parts.push(
      batchGet(hourSpans.map(([start]) => ({ pk: createdDayPartition(accountId), sk: dayOf(start) }))).then((found) => {
        let sum = 0;
        for (const [start, end] of hourSpans) {
          const day = dayOf(start);
          const midnight = Date.parse(`${day}T00:00:00.000Z`);
          const item = found.get(`${createdDayPartition(accountId)}|${day}`);
          sum += sumBuckets(item, (hour) => midnight + Number(hour) * HOUR_MS, start, end, range.status);
        }
        return sum;
      }),
    );
  }
  if (firstDay < endDay) {
    const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
    parts.push(
      queryItems(createdMonthPartition(accountId), { skBetween: [monthOf(firstDay), monthOf(endDay - 1)] }).then((months) => {
        let sum = 0;
        for (const item of months) {
          const month = String(item.sk);
          sum += sumBuckets(item, (day) => Date.parse(`${month}-${day}T00:00:00.000Z`), firstDay, endDay, range.status);
        }
        return sum;
      }),
    );
  }
  const counted = (await Promise.all(parts)).reduce((a, b) => a + b, 0);
  return Math.max(0, counted);
}

/**
 * Recomputes the created_at buckets of an account from its alerts and corrects those found off (the
 * recount of lib/store/recount.ts for these items: two readings that must agree, then conditional
 * ADDs of the differences). Returns the fields corrected, or null when the alerts kept moving.
 */
export async function recountCreatedBuckets(
  accountId: string,
  options: { settleMs?: number; attempts?: number } = {},
): Promise<{ status: 'exact' | 'repaired' | 'busy'; corrections: Record<string, { was: number; now: number }> }> {
  const read = async () => {
    const counted: BucketDeltas = new Map();
    const stored = new Map<string, Item>();
    await Promise.all([
      (async () => {
        for await (const item of queryAll(alertPartition(accountId))) addBucketDeltas(counted, decodeAlert(item), 1);
      })(),
      ...[createdMonthPartition(accountId), createdDayPartition(accountId)].map(async (partition) => {
        for (const item of await queryItems(partition)) stored.set(`${item.pk}|${item.sk}`, item);
      }),
    ]);
    const off = new Map<string, { key: { pk: string; sk: string }; fields: Record<string, { was: number; now: number }> }>();
    for (const id of new Set([...counted.keys(), ...stored.keys()])) {
      const [pk, sk] = [id.slice(0, id.indexOf('|')), id.slice(id.indexOf('|') + 1)];
      const want = counted.get(id)?.deltas ?? {};
      const have = stored.get(id) ?? {};
      const fields: Record<string, { was: number; now: number }> = {};
      for (const field of new Set([...Object.keys(want), ...Object.keys(have)])) {
        if (field === 'pk' || field === 'sk') continue;
        const was = typeof have[field] === 'number' ? (have[field] as number) : 0;
        const now = want[field] ?? 0;
        if (was !== now) fields[field] = { was, now };
      }
      if (Object.keys(fields).length > 0) off.set(id, { key: { pk, sk }, fields });
    }
    return off;
  };
  const flat = (off: Awaited<ReturnType<typeof read>>) => {
    const out: Record<string, { was: number; now: number }> = {};
    for (const { key, fields } of off.values()) for (const [field, change] of Object.entries(fields)) out[`${key.sk} ${field}`] = change;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  let found: Record<string, { was: number; now: number }> = {};
  for (let attempt = 0; attempt < (options.attempts ?? 3); attempt++) {
    const first = await read();
    found = flat(first);
    if (first.size === 0) return { status: 'exact', corrections: {} };
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 1_000));
    const again = await read();
    if (JSON.stringify(flat(again)) !== JSON.stringify(found)) continue;
    const done = await Promise.all([...first.values()].map(({ key, fields }) => correctFields(key, fields)));
    if (done.every(Boolean)) return { status: 'repaired', corrections: found };
  }
  return { status: 'busy', corrections: found };
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
      const { v: _v, ...item } = wordItem(alert.account_id, alert.id, group, words, alert.version, listed);
      return putIfNotNewer(item, 'v', alert.version);
    }),
  );
}

/** Read repair: removes a word item found not to hold for its alert (absent, or its words changed). */
export async function dropStaleWordItem(accountId: string, alertId: string, group: string, alertVersion?: number): Promise<void> {
  await deleteWordItem(accountId, alertId, group, alertVersion === undefined ? undefined : alertVersion + 1);
}

// ── reindex (the operator's `npm run admin -- reindex-alerts`) ───────────────────────────────────

const ALL_STATUSES: AlertStatus[] = ['queued', 'open', 'acknowledged', 'resolved', 'dropped', 'suppressed', 'archived'];

/**
 * Rewrites, for every alert of the account, what its lists need besides the alert: the index keys of
 * the alert item (gsi4..gsi6 for alerts stored before they existed; on condition of the version read),
 * its links (and no `dteam` link of another status) and its word items (never over a later version's).
 * The migration to new indexes, and the repair after a crash between an alert write and its links.
 * Counters are the recount's. Returns how many alerts it read.
 */
export async function reindexAlerts(accountId: string): Promise<number> {
  let count = 0;
  for await (const item of queryAll(alertPartition(accountId))) {
    const alert = decodeAlert(item);
    count++;
    const keys = Object.entries(alertIndexKeys(alert)).filter(([, v]) => v !== undefined);
    const names: Record<string, string> = { '#version': 'version' };
    const values: Record<string, unknown> = { ':v': alert.version };
    keys.forEach(([name, value], i) => {
      names[`#k${i}`] = name;
      values[`:k${i}`] = value;
    });
    const requests: WriteRequest[] = linksOf(alert).map((link) => ({ PutRequest: { Item: linkItem(accountId, link, alert.id) } }));
    for (const team of new Set(alert.destination_team_ids)) {
      for (const status of ALL_STATUSES) {
        if (status !== alert.status)
          requests.push({ DeleteRequest: { Key: linkItem(accountId, { kind: 'dteam', value: dteamValue(team, status) }, alert.id) } });
      }
    }
    await Promise.all([
      db()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key: alertStore.key(accountId, alert.id),
            UpdateExpression: `SET ${keys.map((_, i) => `#k${i} = :k${i}`).join(', ')}`,
            ConditionExpression: '#version = :v',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        }),
      writeInOrder(requests),
      ...[...wordGroupsOf(alert)].map(([group, words]) => {
        const { v: _v, ...word } = wordItem(accountId, alert.id, group, words, alert.version, wordListOf(alert));
        return putIfNotNewer(word, 'v', alert.version);
      }),
    ]);
  }
  return count;
}

// ── bulk import ───────────────────────────────────────────────────────────────────────────────

/**
 * Writes many new alerts at once (seeding, migrations): BatchWrite of the alerts and their links,
 * then one counter update with the summed deltas (and one per created_at bucket item), so the exact
 * counters stay right. No timeline
 * logs and no routing: the alerts are stored as given. Ids must be new.
 */
export async function importAlerts(accountId: string, alerts: AlertRecord[]): Promise<void> {
  const requests: WriteRequest[] = [];
  const deltas: Record<string, number> = {};
  const buckets: BucketDeltas = new Map();
  for (const alert of alerts) {
    if (alert.account_id !== accountId) throw new Error('importAlerts: alert of another account');
    const indexKeys = Object.fromEntries(Object.entries(alertIndexKeys(alert)).filter(([, v]) => v !== undefined));
    requests.push({ PutRequest: { Item: { ...alertStore.key(accountId, alert.id), ...indexKeys, ...storable(alert) } } });
    requests.push(...linkRequests(null, alert));
    const listed = wordListOf(alert);
    for (const [group, words] of wordGroupsOf(alert))
      requests.push({ PutRequest: { Item: wordItem(accountId, alert.id, group, words, alert.version, listed) } });
    for (const name of ['total', ...alertCounts(alert)]) deltas[name] = (deltas[name] ?? 0) + 1;
    addBucketDeltas(buckets, alert, 1);
  }
  await batchWrite(requests);
  await Promise.all([adjustCounts(accountId, TYPE, deltas), ...[...buckets.values()].map(({ key, deltas }) => adjustFields(key, deltas))]);
}
