// The audit trail's writes (docs/api.md#audit-trail): one append-only event per create, update and
// delete of an audited kind, per sign-in and per API key made or revoked, kept a year.
//   event          A#<acc>#AUDIT / <event id>     the event; TTL expires_at = created + 366 days
//     gsi1         A#<acc>#AUDIT#O#<object id> / <event id>     by object
//     gsi2         A#<acc>#AUDIT#A#<actor id | system> / <event id>   by actor
//     gsi3         A#<acc>#AUDIT#T#<object type> / <event id>   by object type
//     gsi4 (keys)  A#<acc>#AUDIT#X#<action> / <event id>        by action
//   pending delete A#<acc>#AUDPEND / <event id>   a delete's event written before the delete (+ gsi5 due)
// No change goes unrecorded, and DynamoDB gives us no transaction here (the local emulator has none),
// so each write carries its own event:
// - create and update: the object's own conditional write carries the event (`audit_pending`) and a
//   due-index entry (gsi5, lib/store/due-index.ts). Then the event is put in its own item (putNew: a
//   second put of it changes nothing) and the object's copy cleared, on the condition that it still
//   holds this event. A crash in between leaves the copy and its due entry: the sweeper moves it
//   (recoverAuditEvents), and so does the object's next save, which reads the item first.
// - delete: the item is gone after the write, so the event is written first, as a pending event
//   with a due entry, and made final once the delete answered. The sweeper settles a pending event
//   left by a crash by the object: absent means the delete happened (ids are never reused).
// An item that keeps due times of its own (a broadcast's timers) carries no due entry: its event is
// moved by the request, or by its next save.
import { DeleteCommand, UpdateCommand } from './commands';
import { currentActor, type AuditActor } from '../audit-actor';
import { now as clockNow } from '../clock';
import { derivedUlid } from '../ids';
import { db, tableName } from './client';
import { dueIndexKeys, listDue } from './due-index';
import { addCounts } from './grouped-writes';
import { AUDIT_TYPE, auditPartition, byAction, byActor, byObject, byObjectType, pendingPartition } from './audit-keys';
import { PENDING_ATTRIBUTE, withoutCarried } from './audit-pending';
import { getItem, isConditionFailure, putNew, type Item, type Key } from './items';

export const AUDIT_RETENTION_DAYS = 366;
/** How long a live request has to move its event before the sweeper takes over. */
export const AUDIT_RECOVERY_DELAY_MS = 60_000;
const DUE_PREFIX = 'AUDIT#';
export const REDACTED = '[redacted]';

export type AuditAction = 'create' | 'update' | 'delete' | 'sign_in' | 'sign_in_failed';

export interface AuditEventRecord {
  id: string;
  account_id: string;
  actor_type: AuditActor['type'];
  actor_id: string | null;
  action: AuditAction;
  object_type: string;
  object_id: string | null;
  changes: Record<string, [unknown, unknown]>;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  /** Epoch seconds: the table's TTL deletes the event after this. */
  expires_at: number;
}

// Attributes of a stored object that are bookkeeping, not what someone changed.
const NOT_CHANGES = new Set(['id', 'account_id', 'version', 'updated_at', PENDING_ATTRIBUTE]);
// A field whose name says it holds a secret, or a hash or seal of one, is never shown.
const SECRET_NAME = /password|secret|token|api_key|private_key|_hash$|_sealed$|credential/i;

/** The value with every secret in it, at any depth (an integration's `options.token`), redacted. */
function redact(field: string, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (SECRET_NAME.test(field)) return REDACTED;
  if (Array.isArray(value)) return value.map((element) => redact('', element));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redact(key, inner)]));
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// The event rides on the changed object's own write, whose item may already be near the store's
// 400 KB: a long value (a 200 KB description) is kept as its beginning and its length, and once an
// event's values reach EVENT_TEXT_LIMIT the rest are named without their values.
const VALUE_TEXT_LIMIT = 1_000;
const EVENT_TEXT_LIMIT = 32_000;
export const OMITTED = '[omitted: the event is full]';

function bounded(value: unknown, budget: { left: number }): unknown {
  if (value === null || value === undefined) return value;
  if (budget.left <= 0) return OMITTED;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= VALUE_TEXT_LIMIT) {
    budget.left -= text.length;
    return value;
  }
  budget.left -= VALUE_TEXT_LIMIT;
  const kind = typeof value === 'string' ? 'characters' : 'characters of JSON';
  return `${text.slice(0, VALUE_TEXT_LIMIT)}… [${text.length} ${kind}]`;
}

/** The fields that differ between two versions of an object (null for absent), secrets redacted, long values cut. */
export function changesBetween(before: Item | null, after: Item | null): Record<string, [unknown, unknown]> {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const field of [...fields].sort()) {
    if (NOT_CHANGES.has(field) || /^(pk|sk|gsi\dpk|gsi\dsk)$/.test(field)) continue;
    differences(field, before?.[field] ?? null, after?.[field] ?? null, changes);
  }
  const budget = { left: EVENT_TEXT_LIMIT };
  for (const [path, [was, is]] of Object.entries(changes)) changes[path] = [bounded(was, budget), bounded(is, budget)];
  return changes;
}

const isPlainObject = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of a nested object that changed, by dotted path (`user.name`), when it is there before and after. */
function differences(path: string, was: unknown, is: unknown, changes: Record<string, [unknown, unknown]>): void {
  if (same(was, is)) return;
  const name = path.slice(path.lastIndexOf('.') + 1);
  if (isPlainObject(was) && isPlainObject(is) && !SECRET_NAME.test(name)) {
    for (const inner of [...new Set([...Object.keys(was), ...Object.keys(is)])].sort()) {
      differences(`${path}.${inner}`, was[inner] ?? null, is[inner] ?? null, changes);
    }
    return;
  }
  // A secret that changed shows that it changed, never what it was or became.
  changes[path] = [redact(name, was), redact(name, is)];
}

export interface AuditedChange {
  accountId: string;
  action: AuditAction;
  objectType: string;
  objectId: string | null;
  changes: Record<string, [unknown, unknown]>;
  /** Makes the event's id: the same change gives the same id, so a second write of it is no second event. */
  seed: string;
  /** Who did it, when not the request's caller (a sign-in names the person signing in). */
  actor?: Pick<AuditActor, 'type' | 'id'>;
}

export function auditEvent(change: AuditedChange, at = clockNow()): AuditEventRecord {
  const caller = currentActor();
  const actor = change.actor ?? caller;
  return {
    id: derivedUlid(at, change.seed),
    account_id: change.accountId,
    actor_type: actor.type,
    actor_id: actor.id,
    action: change.action,
    object_type: change.objectType,
    object_id: change.objectId,
    changes: change.changes,
    ip: caller.ip,
    user_agent: caller.userAgent,
    created_at: new Date(at).toISOString(),
    expires_at: Math.ceil(at / 1000) + AUDIT_RETENTION_DAYS * 86_400,
  };
}

export function auditEventItem(event: AuditEventRecord): Item {
  const id = event.id;
  const accountId = event.account_id;
  return {
    pk: auditPartition(accountId),
    sk: id,
    gsi1pk: event.object_id ? byObject(accountId, event.object_id) : undefined,
    gsi1sk: event.object_id ? id : undefined,
    gsi2pk: byActor(accountId, event.actor_id),
    gsi2sk: id,
    gsi3pk: byObjectType(accountId, event.object_type),
    gsi3sk: id,
    gsi4pk: byAction(accountId, event.action),
    gsi4sk: id,
    ...event,
  };
}

/** Writes a finished event once (a second write of the same event is a no-op) and counts it. */
export async function writeAuditEvent(event: AuditEventRecord): Promise<void> {
  const item = Object.fromEntries(Object.entries(auditEventItem(event)).filter(([, v]) => v !== undefined));
  if (await putNew(item)) await addCounts(event.account_id, AUDIT_TYPE, { total: 1 });
}

const dueWhat = (key: Key) => `${DUE_PREFIX}${key.pk}|${key.sk}`;

function keyOfDue(what: string): Key | null {
  if (!what.startsWith(DUE_PREFIX)) return null;
  const [pk, sk] = what.slice(DUE_PREFIX.length).split('|');
  return pk && sk !== undefined ? { pk, sk } : null;
}

/**
 * The attributes an object's create or update write carries: the event, and (unless the item keeps
 * due times of its own) the due entry that lets the sweeper finish the move after a crash.
 */
export function carriedEvent(objectKey: Key, item: Item, event: AuditEventRecord): Item {
  const carried: Item = { [PENDING_ATTRIBUTE]: JSON.stringify(event) };
  if (item.gsi5pk === undefined) Object.assign(carried, dueIndexKeys(clockNow() + AUDIT_RECOVERY_DELAY_MS, dueWhat(objectKey)));
  return carried;
}

/** The event an object's item still carries (its write's follow-up did not run), if any. */
export function carriedBy(item: Item | null): AuditEventRecord | null {
  const raw = item?.[PENDING_ATTRIBUTE];
  return typeof raw === 'string' ? (JSON.parse(raw) as AuditEventRecord) : null;
}

/** After the object's write: the event in its own item, then the object's copy and due entry cleared. */
export async function moveCarriedEvent(objectKey: Key, event: AuditEventRecord, dueEntry: boolean): Promise<void> {
  await writeAuditEvent(event);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: objectKey,
        UpdateExpression: `REMOVE #pending${dueEntry ? ', gsi5pk, gsi5sk' : ''}`,
        ConditionExpression: '#pending = :event',
        ExpressionAttributeNames: { '#pending': PENDING_ATTRIBUTE },
        ExpressionAttributeValues: { ':event': JSON.stringify(event) },
      }),
    );
  } catch (error) {
    // A later write of the object replaced the copy (with its own event, moved by its own writer).
    if (!isConditionFailure(error)) throw error;
  }
}

/** What an audited write records, and where. */
export interface AuditTarget {
  accountId: string;
  objectType: string;
  objectId: string;
}

export interface PreparedEvent {
  key: Key;
  event: AuditEventRecord;
  dueEntry: boolean;
}

function carry(objectKey: Key, item: Item, event: AuditEventRecord): PreparedEvent {
  const carriedAttributes = carriedEvent(objectKey, item, event);
  Object.assign(item, carriedAttributes);
  return { key: objectKey, event, dueEntry: carriedAttributes.gsi5pk !== undefined };
}

/** A create's event, added to the item its conditional put writes; `finishEvent` after the put. */
export function prepareCreate(objectKey: Key, item: Item, target: AuditTarget): PreparedEvent {
  const event = auditEvent({
    accountId: target.accountId,
    action: 'create',
    objectType: target.objectType,
    objectId: target.objectId,
    changes: changesBetween(null, item),
    seed: `${objectKey.pk}|${objectKey.sk}|create`,
  });
  return carry(objectKey, item, event);
}

/**
 * An update's event, added to the item its versioned put writes: the stored item is read for the
 * fields that change, and an event it still carries from a write that did not finish is moved first,
 * before this write replaces it. Null when no field changes.
 */
export async function prepareUpdate(objectKey: Key, item: Item, target: AuditTarget): Promise<PreparedEvent | null> {
  const current = await getItem(objectKey);
  await moveLeftover(objectKey, current);
  const changes = changesBetween(current ? withoutCarried(current) : null, item);
  if (Object.keys(changes).length === 0) return null;
  const event = auditEvent({
    accountId: target.accountId,
    action: 'update',
    objectType: target.objectType,
    objectId: target.objectId,
    changes,
    seed: `${objectKey.pk}|${objectKey.sk}|update|${typeof item.version === 'number' ? item.version : ''}`,
  });
  return carry(objectKey, item, event);
}

/** After the write that carried it: the event moved to its own item (nothing when there was none). */
export async function finishEvent(prepared: PreparedEvent | null): Promise<void> {
  if (prepared) await moveCarriedEvent(prepared.key, prepared.event, prepared.dueEntry);
}

/** A delete with its event: written before it, settled after it. Returns what the delete removed. */
export async function auditedDelete(objectKey: Key, target: AuditTarget, remove: () => Promise<Item | null>): Promise<Item | null> {
  const current = await getItem(objectKey);
  if (!current) return null;
  await moveLeftover(objectKey, current);
  const event = auditEvent({
    accountId: target.accountId,
    action: 'delete',
    objectType: target.objectType,
    objectId: target.objectId,
    changes: changesBetween(withoutCarried(current), null),
    seed: `${objectKey.pk}|${objectKey.sk}|delete`,
  });
  const pending = await writePendingDelete(objectKey, event);
  const deleted = await remove();
  await settlePendingDelete(pending, event, deleted !== null);
  return deleted;
}

async function moveLeftover(objectKey: Key, current: Item | null): Promise<void> {
  const leftover = carriedBy(current);
  if (leftover)
    await moveCarriedEvent(objectKey, leftover, typeof current?.gsi5sk === 'string' && current.gsi5sk.includes(`#${DUE_PREFIX}`));
}

/** A delete's event, written before the delete; the sweeper settles it if the request does not. */
export async function writePendingDelete(objectKey: Key, event: AuditEventRecord): Promise<Key> {
  const key = { pk: pendingPartition(event.account_id), sk: event.id };
  await putNew({
    ...key,
    ...dueIndexKeys(clockNow() + AUDIT_RECOVERY_DELAY_MS, dueWhat(key)),
    object_key: objectKey,
    event: JSON.stringify(event),
  });
  return key;
}

/** The delete answered: the event is final (done: the object was deleted) or dropped (it was absent). */
export async function settlePendingDelete(pendingKey: Key, event: AuditEventRecord, done: boolean): Promise<void> {
  if (done) await writeAuditEvent(event);
  await db().send(new DeleteCommand({ TableName: tableName(), Key: pendingKey }));
}

/**
 * The sweeper's safety net: every audit due entry whose time passed is a write whose request did not
 * finish its event (a crash, a lost answer). Returns how many events it settled, and the entries it
 * could not (left for the next sweep).
 */
export async function recoverAuditEvents(
  options: { now?: number; perShard?: number } = {},
): Promise<{ settled: number; failed: Array<{ key: Key; error: Error }> }> {
  const due = (await listDue(options.now ?? clockNow(), options.perShard ?? 50)).flatMap((entry) => {
    const key = keyOfDue(entry.what);
    return key ? [key] : [];
  });
  let settled = 0;
  const failed: Array<{ key: Key; error: Error }> = [];
  for (const key of due) {
    try {
      const item = await getItem(key);
      if (!item) continue;
      if (key.pk.endsWith('#AUDPEND')) {
        const event = JSON.parse(String(item.event)) as AuditEventRecord;
        const objectGone = (await getItem(item.object_key as Key)) === null;
        await settlePendingDelete(key, event, objectGone);
        settled += 1;
        continue;
      }
      const event = carriedBy(item);
      if (event) {
        await moveCarriedEvent(key, event, true);
        settled += 1;
      } else if (typeof item.gsi5sk === 'string' && item.gsi5sk.includes(`#${DUE_PREFIX}`)) {
        // The event moved but the clear of its due entry did not run.
        await db().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'REMOVE gsi5pk, gsi5sk' }));
      }
    } catch (error) {
      failed.push({ key, error: error as Error });
    }
  }
  return { settled, failed };
}
