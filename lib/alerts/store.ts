// Data access for the alert item itself: its codec (defaults left out), create, versioned save,
// remove, status transitions as one conditional UpdateItem, and the reads of the alert by its indexes.
// What follows an alert write lives in its own store file, called from here so every write keeps
// them in step: links (link-store.ts), the `q` word index (word-store.ts), the created_at buckets
// (created-at-store.ts); whole-account writes are bulk-store.ts. Keys come from keys.ts; the
// patterns they serve are lib/alerts/ACCESS-PATTERNS.md.
//   alert         A#<acc>#ALERT / <id>      gsi3 third-party id, gsi4 status+urgency, gsi5 tiny id, gsi6 updated_at (keys only but gsi3)
//   counters      A#<acc>#COUNT / ALERT    total, status:*, urgency:*, team:*, incident, subtype:*, su:*, dteam:*
import { isDeepStrictEqual } from 'node:util';
import { QueryCommand, UpdateCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { entityStore } from '../store/entity-store';
import { addCounts } from '../store/grouped-writes';
import { recentTinyIdHolder } from '../store/counters';
import { sleep } from '../clock';
import { fromItem, isConditionFailure, queryItems, type Item, type QueryOptions } from '../store/items';
import { createdRangeQuery, moveBuckets, type CreatedRange } from './created-at-store';
import {
  alertCounts,
  alertIndexKeys,
  assignedTeamCounter,
  byTinyIdPartition,
  byUpdatePartition,
  COUNTER,
  dteamValue,
  FORMER_INDEX_KEYS,
  statusUrgencyPartition,
  statusUrgencySortKey,
  thirdpartyPartition,
  tinySortKey,
  updateSortKey,
  type IndexKind,
  type LinkKind,
} from './keys';
import { listLinkedAlertIds, syncLinks } from './link-store';
import {
  ALERT_STATUSES,
  MAX_TRANSITION_MARKS,
  URGENCIES,
  type AlertRecord,
  type AlertStatus,
  type Assignment,
  type RoutingDecision,
  type TransitionMark,
} from './records';
import { deleteWordItems, wordGroupNamesOf, writeWordItemsFor } from './word-store';
import { decidedAtCreate, decisionAtCreate, isRoutedAtCreate, type DecisionAtCreate } from './direct-routing';

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
  transitions: [],
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
  const stored = fromItem<Record<string, unknown>>(item);
  const transitions: TransitionMark[] = [];
  for (let i = 0; i < MAX_TRANSITION_MARKS; i++) {
    const mark = decodeMark(stored[markSlot(i)], stored[fromSlot(i)]);
    if (mark) transitions.push(mark);
    delete stored[markSlot(i)];
    delete stored[fromSlot(i)];
  }
  // Items written before hold the id and the account; since, the keys hold them (storable).
  const keys = { id: String(item.sk), account_id: String(item.pk).slice(2, -(TYPE.length + 1)) };
  const alert: AlertRecord = { ...alertDefaults(), ...keys, ...(stored as unknown as AlertRecord), transitions };
  if (alert.routing_log_id === DECIDED_AS_DERIVED) return withDerivedDecision(alert, stored);
  alert.assignments = alert.assignments.map(fullAssignment);
  if (alert.routing) alert.routing = fullRouting(alert.routing);
  return alert;
}

// ── a routing decided at create, stored implicitly ────────────────────────────────────────────
// An alert whose create decided its routing (direct-routing.ts) holds nothing routing's own record
// does not derive from it: its assignments (its own destinations), the record (routed, open → open),
// `routed_at` (its creation), `routing_log_id` (the id after its own) and its assignees (the first
// team and person). Stored, they are ~200 bytes, which every later write of the item pays per started
// KB: the item holds `routing_log_id` = DECIDED_AS_DERIVED instead, and an assignee only once it
// differs from the derived one (a hand-off, a reassignment: stored as it is, null too).

/** `routing_log_id` of an item whose routing decision is its create's, as derived. */
const DECIDED_AS_DERIVED = '+';

const sameAssignments = (a: readonly Assignment[], b: readonly Assignment[]) =>
  a.length === b.length &&
  a.every(
    (x, i) => x.type === b[i].type && x.id === b[i].id && x.user_id === b[i].user_id && x.delay_ms === b[i].delay_ms && x.via === b[i].via,
  );

/** The decision of an item stored implicitly (encoded only when the alert's id has one after it). */
const derivedDecision = (alert: AlertRecord): DecisionAtCreate => decisionAtCreate(alert)!;

function withDerivedDecision(alert: AlertRecord, stored: Record<string, unknown>): AlertRecord {
  const derived = derivedDecision(alert);
  return {
    ...alert,
    ...derived,
    assigned_team_id: 'assigned_team_id' in stored ? alert.assigned_team_id : derived.assigned_team_id,
    assigned_user_id: 'assigned_user_id' in stored ? alert.assigned_user_id : derived.assigned_user_id,
  };
}

/** The stored attributes of an alert whose decision is derivable (else null): the decision's left out. */
function withDecisionLeftOut(alert: AlertRecord, stored: Record<string, unknown>): Record<string, unknown> | null {
  if (!decidedAtCreate(alert)) return null;
  const derived = derivedDecision(alert);
  const same =
    alert.routed_at === derived.routed_at && isRoutedAtCreate(alert.routing) && sameAssignments(alert.assignments, derived.assignments);
  if (!same) return null;
  const out: Record<string, unknown> = { ...stored, routing_log_id: DECIDED_AS_DERIVED };
  delete out.routed_at;
  delete out.routing;
  delete out.assignments;
  delete out.assigned_team_id;
  delete out.assigned_user_id;
  if (alert.assigned_team_id !== derived.assigned_team_id) out.assigned_team_id = alert.assigned_team_id;
  if (alert.assigned_user_id !== derived.assigned_user_id) out.assigned_user_id = alert.assigned_user_id;
  return out;
}

// The routing record and the assignments are stored without their empty fields (null, [], a delay of
// 0): ~80 bytes of a routed alert, which every later write of the item pays per started KB.
const assignmentDefaults = (): Pick<Assignment, 'user_id' | 'delay_ms' | 'via'> => ({ user_id: null, delay_ms: 0, via: null });
const routingDefaults = (): Pick<RoutingDecision, 'reason' | 'hops' | 'skipped' | 'automations' | 'aggregate'> => ({
  reason: null,
  hops: [],
  skipped: [],
  automations: [],
  aggregate: null,
});

function fullAssignment(stored: Assignment): Assignment {
  const { type, id, ...rest } = stored;
  return { type, id, ...assignmentDefaults(), ...rest };
}

function fullRouting(stored: RoutingDecision): RoutingDecision {
  const { outcome, ...rest } = stored;
  return { outcome, ...routingDefaults(), ...rest };
}

/** An object without the fields that hold their value in `defaults` (all of them JSON values). */
function withoutDefaults<T extends object>(value: T, defaults: Partial<T>): T {
  const out: Record<string, unknown> = {};
  for (const [field, held] of Object.entries(value)) {
    const fallback = (defaults as Record<string, unknown>)[field];
    if (fallback === undefined || !isDefault(held, fallback)) out[field] = held;
  }
  return out as T;
}

// ── transition marks ──────────────────────────────────────────────────────────────────────────
// Stored in fixed slots, newest first: `_t0` … `_t4` hold `<key>␟<call>␟<to>␟<at>` and `_f0` … `_f4`
// the status the change found. A transition shifts them by one in its own UpdateItem (every
// right-hand side reads the item as it was, so `_f0 = status` is the status before the write): the
// write needs no read, the mark knows where it came from, and the item never holds more than five.

const MARK_SEPARATOR = '\u001f';
/** What a slot holds before any change shifted a mark into it. */
const NO_MARK = '-';
const markSlot = (i: number) => `_t${i}`;
const fromSlot = (i: number) => `_f${i}`;

/** A call keyed by itself (the API's requests) leaves its call empty: ~26 bytes a mark. */
function encodeMark(mark: Omit<TransitionMark, 'from'>): string {
  return [mark.key, mark.call === mark.key ? '' : mark.call, mark.to, mark.at].join(MARK_SEPARATOR);
}

function decodeMark(slot: unknown, from: unknown): TransitionMark | null {
  if (typeof slot !== 'string' || slot === NO_MARK) return null;
  const [key, call, to, at] = slot.split(MARK_SEPARATOR);
  return { key, call: call === '' ? key : call, from: from as AlertStatus, to: to as AlertStatus, at };
}

/** An idempotency key as marks can hold it (the first part of a mark). */
export function checkIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > 200 || key.includes(MARK_SEPARATOR))
    throw new Error(`not an idempotency key: ${JSON.stringify(key)}`);
  return key;
}

/**
 * The record as stored: attributes that hold their default (null, [], {}, …) are left out and
 * restored by decodeAlert. A typical alert item has half the attributes, which every write, every
 * returned item and every index copy pays for; and a missing acknowledged_at is what lets the first
 * acknowledgement set it with if_not_exists.
 */
function storable(alert: AlertRecord): AlertRecord {
  const stored: Record<string, unknown> = { ...withoutDefaults(alert, DEFAULTS) };
  // The keys hold them (decodeAlert).
  delete stored.id;
  delete stored.account_id;
  if (alert.assignments.length > 0) stored.assignments = alert.assignments.map((a) => withoutDefaults(a, assignmentDefaults()));
  if (alert.routing) stored.routing = withoutDefaults(alert.routing, routingDefaults());
  delete stored.transitions;
  alert.transitions.slice(0, MAX_TRANSITION_MARKS).forEach((mark, i) => {
    stored[markSlot(i)] = encodeMark(mark);
    stored[fromSlot(i)] = mark.from;
  });
  return (withDecisionLeftOut(alert, stored) ?? stored) as unknown as AlertRecord;
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

/**
 * Stores a new alert with its counters and links; false when an alert with that id exists. Its word
 * items must be written first (writeNewWordItems: the caller writes them beside its other reads and
 * writes before the insert). The tiny id was reserved for this call alone: an alert found with it is
 * this write, applied by an attempt whose answer was lost, and its counters and links are written
 * now. `counts`: further alert counter deltas the insert adds once it has won (its 'created' entry);
 * `alongside`: the caller's writes that follow the insert (the entry), made beside the counters,
 * links and buckets: one round trip after the put for all of them.
 */
export async function insertAlert(
  alert: AlertRecord,
  counts: Record<string, number> = {},
  alongside?: () => Promise<unknown>,
): Promise<boolean> {
  return alertStore.insert(
    alert,
    (stored) => stored.tiny_id === alert.tiny_id && stored.created_at === alert.created_at,
    counts,
    () => Promise.all([syncLinks(null, alert), moveBuckets(null, alert), alongside?.()]),
  );
}

/**
 * Replaces an alert read at version `next.version - 1` (the caller raised it); false when another
 * write came in between (the caller re-reads and retries, or answers 409). Counters and links move
 * with it. When the condition fails on an item that is exactly `next` (its version, its updated_at
 * to the millisecond, a hand-off's own mark), that is this save, applied by an attempt whose answer
 * was lost: it is taken as saved, so its counters move once and the caller does not apply it twice.
 * `counts`: further alert counter deltas the save adds once it has won (routing's timeline entries).
 */
export async function saveAlert(before: AlertRecord, next: AlertRecord, counts: Record<string, number> = {}): Promise<boolean> {
  // The counters and the links move side by side once the conditional put has won (routing that
  // assigns a team adds a team link and a team count: one round trip for both, not two).
  const dropped = await writeWordItemsFor(before, next);
  const saved = await alertStore.save(next, undefined, (stored) => sameItem(alertStore.item(stored), alertStore.item(next)));
  if (saved) {
    const deltas = countDeltas(alertCounts(before), alertCounts(next));
    for (const [name, n] of Object.entries(counts)) deltas[name] = (deltas[name] ?? 0) + n;
    await Promise.all([
      Object.keys(deltas).length > 0 ? addCounts(next.account_id, TYPE, deltas) : undefined,
      syncLinks(before, next),
      moveBuckets(before, next),
      deleteWordItems(next.account_id, next.id, dropped, next.version),
    ]);
  }
  return saved;
}

/** Two items hold the same attributes (as stored: undefined ones are never written). */
function sameItem(a: Item, b: Item): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
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

/** The request a status change belongs to (TransitionMark): its idempotency key and this call of it. */
export interface ChangeRequest {
  key: string;
  call: string;
}

export interface StatusChange {
  /** Statuses the alert may be in for the change to apply: the condition of the write. */
  from: readonly AlertStatus[];
  to: AlertStatus;
  now: string;
  /** Written with the change (a TransitionMark); a change whose key the alert holds is refused. */
  request: ChangeRequest;
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

export type StatusChangeOutcome =
  /** This call's change: its write answered, or its answer was lost and the alert carries its mark. */
  | { outcome: 'applied'; before: AlertRecord; after: AlertRecord }
  /** An earlier call with the same key made the change; nothing was written now. `after`: the alert
   * as that change left it (as far as it can be told from the alert as it is now). */
  | { outcome: 'repeated'; after: AlertRecord }
  /** The condition failed: the alert is absent, in another status, or holds the key of a change
   * that is no longer among its marks. The caller reads the alert to tell which. */
  | { outcome: 'refused' };

/**
 * A status transition as ONE conditional UpdateItem: it applies only while the stored status is one
 * of `from` and the alert holds no change with the request's key, and raises `version` in the same
 * write, so any read-modify-write that read the alert before (an edit, a handoff, routing) loses its
 * own version check and re-reads. The status is the whole precondition: conditioning on a version too
 * would need a read first and would turn a harmless concurrent edit into a spurious 409. Only the
 * attributes of the transition are written, so a concurrent change of other attributes is never lost.
 *
 * The write shifts in its TransitionMark. When the condition fails, or the SDK gives up on a write
 * whose answer never came, the alert is read (recogniseChange): a mark of this call means its own
 * write applied and only the answer was lost (the SDK retried it, and the retry found the status
 * moved), so what follows the write (counters, links, buckets, `alongside`) is done now and the
 * change is answered as applied; a mark with the same key from another call is a repeat of a request
 * applied before, and nothing is written.
 */
export async function changeStatus(accountId: string, alertId: string, change: StatusChange): Promise<StatusChangeOutcome> {
  const names: Record<string, string> = {
    '#pk': 'pk',
    '#status': 'status',
    '#gsi4pk': 'gsi4pk',
    '#gsi6sk': 'gsi6sk',
    '#version': 'version',
    '#updated_at': 'updated_at',
  };
  const values: Record<string, unknown> = {
    ':to': change.to,
    ':supart': statusUrgencyPartition(accountId, change.to),
    ':updsk': updateSortKey(change.now, alertId),
    ':one': 1,
    ':now': change.now,
    ':mark': encodeMark({ ...change.request, to: change.to, at: change.now }),
    ':nomark': NO_MARK,
  };
  const key = checkIdempotencyKey(change.request.key);
  // A request without a key of its own (the API's, a click's) is keyed by its call, so only this
  // call's write can hold a mark with its key, and that mark is exactly `:mark` (the SDK resends the
  // same values). Equality finds it as begins_with would, at a fraction of the cost on the embedded
  // emulator (dynalite spent a third of an acknowledgement's write parsing the five begins_with); a
  // key shared by several calls (Slack, SMS replies) still needs the prefix.
  const ownCallOnly = key === change.request.call;
  if (!ownCallOnly) values[':keyed'] = `${key}${MARK_SEPARATOR}`;
  const sets = ['#status = :to', '#gsi4pk = :supart', '#gsi6sk = :updsk', '#version = #version + :one', '#updated_at = :now'];
  const marked: string[] = [];
  for (let i = 0; i < MAX_TRANSITION_MARKS; i++) {
    names[`#t${i}`] = markSlot(i);
    names[`#f${i}`] = fromSlot(i);
    sets.push(
      i === 0 ? '#t0 = :mark' : `#t${i} = if_not_exists(#t${i - 1}, :nomark)`,
      i === 0 ? '#f0 = #status' : `#f${i} = if_not_exists(#f${i - 1}, :nomark)`,
    );
    marked.push(ownCallOnly ? `#t${i} = :mark` : `begins_with(#t${i}, :keyed)`);
  }
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
        // An alert stored before keeps its whole-item copies in gsi1/gsi2 until a write removes them
        // (removing absent attributes costs nothing).
        UpdateExpression: `SET ${sets.join(', ')} REMOVE ${FORMER_INDEX_KEYS.join(', ')}`,
        ConditionExpression: `attribute_exists(#pk) AND #status IN (${allowed.join(', ')}) AND NOT (${marked.join(' OR ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_OLD',
      }),
    );
    old = out.Attributes as Item;
  } catch (error) {
    return recogniseChange(accountId, alertId, change, error);
  }
  const before = decodeAlert(old);
  const after = changed(before, change, { ...change.request, from: before.status, to: change.to, at: change.now });
  await followChange(accountId, before, after, after, change);
  return { outcome: 'applied', before, after };
}

/** The alert as a change left it: `before` with the change's attributes and its mark. */
function changed(before: AlertRecord, change: StatusChange, mark: TransitionMark): AlertRecord {
  const after: AlertRecord = {
    ...before,
    ...(change.set as Partial<AlertRecord>),
    status: change.to,
    version: before.version + 1,
    updated_at: change.now,
    transitions: [mark, ...before.transitions].slice(0, MAX_TRANSITION_MARKS),
  };
  for (const [field, value] of Object.entries(change.setOnce ?? {})) {
    const record = after as unknown as Record<string, unknown>;
    if (record[field] === null || record[field] === undefined) record[field] = value;
  }
  return after;
}

/**
 * What follows a status change, beside each other (one round trip): the counters it moves with the
 * caller's own deltas, the destination-team links (toward `now`, the alert as it is stored now), the
 * created_at buckets, and the caller's `alongside` work.
 */
async function followChange(accountId: string, before: AlertRecord, after: AlertRecord, now: AlertRecord | null, change: StatusChange) {
  const deltas: Record<string, number> = { ...change.counts };
  for (const [name, n] of Object.entries(countDeltas(alertCounts(before), alertCounts(after)))) deltas[name] = (deltas[name] ?? 0) + n;
  await Promise.all([
    addCounts(accountId, TYPE, deltas),
    syncLinks(before, now),
    moveBuckets(before, after),
    change.alongside?.(before, after),
  ]);
}

/**
 * Why a change did not answer (its condition failed, or the SDK gave up on it): read the alert and
 * look for the request's mark. This call's mark: its write applied and the answer was lost, so the
 * change is finished now, from the mark (the status it found) and the alert as it is. Exact when
 * nothing changed the alert since (the usual case: the retry came milliseconds later); when another
 * write came in between, the counters move by the status change on the alert's attributes of now,
 * and the links follow the alert as it is now. Another call's mark with the key: a repeat.
 */
async function recogniseChange(accountId: string, alertId: string, change: StatusChange, error: unknown): Promise<StatusChangeOutcome> {
  const current = await getAlert(accountId, alertId);
  const mark = current?.transitions.find((m) => m.key === change.request.key);
  if (!current || !mark) {
    if (isConditionFailure(error)) return { outcome: 'refused' };
    throw error;
  }
  const untouched = current.transitions[0] === mark && current.updated_at === mark.at && current.status === mark.to;
  const after: AlertRecord = untouched
    ? current
    : {
        ...current,
        ...(mark.call === change.request.call ? (change.set as Partial<AlertRecord>) : {}),
        status: mark.to,
        updated_at: mark.at,
      };
  if (mark.call !== change.request.call) return { outcome: 'repeated', after };
  const before: AlertRecord = { ...after, status: mark.from, version: after.version - 1 };
  // What this write set and still holds its value was unset before it: a setOnce field by its
  // condition, and the transitions' own fields (resolved_at, acknowledged_by, archived_at) because each
  // transition leaves from a status that never had them. The report figures (created_at-store.ts)
  // move with acknowledged_at and resolved_at, so `before` must not carry them.
  const earlier = before as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries({ ...change.set, ...change.setOnce })) if (earlier[field] === value) earlier[field] = null;
  await followChange(accountId, before, after, current, change);
  return { outcome: 'applied', before, after };
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

/**
 * Alerts holding one value of an indexed attribute, in id order (newest first unless `forward`). Read
 * through a keys-only index or links, then the alerts themselves: one that moved in between is read
 * as it is now (callers that need the value to hold check it: list-source's readChecked).
 */
export async function listAlertsWith(
  accountId: string,
  kind: IndexKind,
  value: string,
  forward: boolean,
  limit?: number,
): Promise<AlertRecord[]> {
  switch (kind) {
    // Status: its gsi4 partition, one range per urgency merged in id order.
    case 'status':
      return alertsOfRanges(
        accountId,
        URGENCIES.map((urgency) => ({ partition: statusUrgencyPartition(accountId, value), skBeginsWith: `${urgency}#` })),
        forward,
        limit,
      );
    // Urgency: the same range of every status's gsi4 partition, merged.
    case 'urgency':
      return alertsOfRanges(
        accountId,
        ALERT_STATUSES.map((status) => ({ partition: statusUrgencyPartition(accountId, status), skBeginsWith: `${value}#` })),
        forward,
        limit,
      );
    case 'su': {
      // `<status>#<urgency>`: one range of the status's gsi4 partition.
      const [status, urgency] = value.split('#');
      return alertsOfRanges(
        accountId,
        [{ partition: statusUrgencyPartition(accountId, status), skBeginsWith: `${urgency}#` }],
        forward,
        limit,
      );
    }
    case 'team': {
      // Its dteam links (one partition per status) and its team links (an assigned team that is no
      // destination; every team of an alert stored before), merged in id order.
      return alertsOfLinks(
        accountId,
        [['team', value], ...ALERT_STATUSES.map((status): [LinkKind, string] => ['dteam', dteamValue(value, status)])],
        forward,
        limit,
      );
    }
    case 'tstatus': {
      // `<team>#<status>`: its dteam links of that status and its team links (of any status: the
      // caller checks each alert), merged in id order.
      const at = value.lastIndexOf('#');
      const [team, status] = [value.slice(0, at), value.slice(at + 1)];
      return alertsOfLinks(
        accountId,
        [
          ['team', team],
          ['dteam', dteamValue(team, status)],
        ],
        forward,
        limit,
      );
    }
    case 'thirdparty': {
      const found = await listAlertsByThirdpartyId(accountId, value);
      return forward ? found.reverse() : found;
    }
    default:
      return getAlerts(accountId, await listLinkedAlertIds(accountId, kind, value, limit, forward));
  }
}

/** The alerts of several link partitions, read side by side (`limit` each) and merged in id order without repeats, at most `limit`. */
async function alertsOfLinks(accountId: string, links: [LinkKind, string][], forward: boolean, limit?: number): Promise<AlertRecord[]> {
  const lists = await Promise.all(links.map(([kind, value]) => listLinkedAlertIds(accountId, kind, value, limit, forward)));
  const ids = [...new Set(lists.flat())].sort();
  if (!forward) ids.reverse();
  return getAlerts(accountId, limit === undefined ? ids : ids.slice(0, limit));
}

/** One range of a gsi4 partition: a sort-key prefix (an urgency) or a sort-key span. */
interface GsiRange {
  partition: string;
  skBeginsWith?: string;
  skBetween?: [string, string];
}

/** The ids of gsi4 ranges merged in id order (sort keys end with the alert id), at most `limit`. */
async function idsOfRanges(ranges: GsiRange[], forward: boolean, limit?: number): Promise<string[]> {
  const lists = await Promise.all(ranges.map((range) => queryItems(range.partition, { ...range, index: 'gsi4', forward, limit })));
  const ids = lists.flat().map((key) => String(key.gsi4sk).slice(String(key.gsi4sk).indexOf('#') + 1));
  ids.sort();
  if (!forward) ids.reverse();
  return limit === undefined ? ids : ids.slice(0, limit);
}

/** The alerts of gsi4 ranges in id order: the keys, then one BatchGet per 100. */
async function alertsOfRanges(accountId: string, ranges: GsiRange[], forward: boolean, limit?: number): Promise<AlertRecord[]> {
  return getAlerts(accountId, await idsOfRanges(ranges, forward, limit));
}

/**
 * How many of a team's alerts have one of these statuses, from the counters: those sent to it
 * (`dteam:`) and those assigned to it alone (`ateam:`). An alert assigned to a team that is none of
 * its destinations before the `ateam:` counters existed counts once the recount has run.
 */
export function countTeamAlertsWithStatus(counts: Record<string, number>, team: string, statuses: readonly string[]): number {
  let total = 0;
  for (const status of new Set(statuses))
    total += Math.max(0, (counts[COUNTER.dteam!(dteamValue(team, status))] ?? 0) + (counts[assignedTeamCounter(team, status)] ?? 0));
  return total;
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

/**
 * How long a tiny id handed out but not (yet) in gsi5 is looked for again: a global secondary index
 * follows its table within about a second (DynamoDB's own figure), so a path naming an alert created
 * a moment ago can meet it absent there. Real time: the index's lag is not the product's time.
 */
export const TINY_INDEX_WAITS_MS = [50, 150, 300, 600] as const;

/**
 * The alert that carries a tiny id (the number people see: `/alert/4/acknowledge`), or null: one
 * Query of gsi5 (keys only, the same entries `sort=tiny_id` reads). Alerts no longer write a link item
 * for it (`ALERT#L#tiny#<n>`, one write unit a create, duplicated what gsi5 gives); those written before
 * are read when gsi5 has none (an alert stored before gsi5 held every alert, and not reindexed). The
 * index lags its table: a number gsi5 does not hold yet is found in the account's tiny-id item, whose
 * last 8 reservations name the alert when it took its number alone (`@<alert id>.<nonce>`: a create outside a
 * burst, the alert a person acts on right after it was made); else, up to the last number handed out,
 * gsi5 is asked again for ~1 s (TINY_INDEX_WAITS_MS); numbers beyond it are absent at once.
 */
export async function alertIdOfTinyId(accountId: string, tinyId: number): Promise<string | null> {
  const inIndex = async () => {
    const [key] = await queryItems(byTinyIdPartition(accountId), {
      index: 'gsi5',
      skBetween: [tinySortKey(tinyId), tinySortKey(tinyId)],
      limit: 1,
    });
    return key ? String(key.sk) : null;
  };
  const found = await inIndex();
  if (found) return found;
  const [[linked], recent] = await Promise.all([
    listLinkedAlertIds(accountId, 'tiny', String(tinyId), 1),
    recentTinyIdHolder(accountId, TYPE, tinyId),
  ]);
  if (linked) return linked;
  if (recent.holder) return recent.holder;
  if (tinyId > recent.last) return null;
  for (const wait of TINY_INDEX_WAITS_MS) {
    await sleep(wait);
    const late = await inIndex();
    if (late) return late;
  }
  return null;
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

/**
 * Alerts created in a range (optionally of one status), in id order, at most `limit`. Without a
 * status: an id range of the alert partition, filtered by created_at. With one: the id range of each
 * urgency's part of the status's gsi4 partition (keys only), then the alerts, kept while they hold the
 * status and their created_at is in the range; read on while the page is short.
 */
export async function listAlertsCreatedIn(accountId: string, range: CreatedRange, forward: boolean, limit: number): Promise<AlertRecord[]> {
  if (range.status !== undefined) {
    const status = range.status;
    const ranges = URGENCIES.map((urgency) => ({
      partition: statusUrgencyPartition(accountId, status),
      skBetween: [statusUrgencySortKey(urgency, range.idFrom), statusUrgencySortKey(urgency, range.idTo)] as [string, string],
    }));
    const holds = (alert: AlertRecord) => alert.status === status && alert.created_at >= range.from && alert.created_at <= range.to;
    for (let read = limit + 2; ; read *= 4) {
      const ids = await idsOfRanges(ranges, forward, read);
      const found = (await getAlerts(accountId, ids)).filter(holds);
      if (found.length >= limit || ids.length < read) return found.slice(0, limit);
    }
  }
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
