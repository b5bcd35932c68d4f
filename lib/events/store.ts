// Data access for events (keys and access patterns: lib/events/ACCESS-PATTERNS.md).
//   event              A#<acc>#EVT / <id>                   gsi1: A#<acc>#EVT#P#<parent id> / <id> (overrides only)
//   schedule link      A#<acc>#SKD#<schedule id>#EVT / <event id>   (one per schedule the event is in)
// Links are written before the event and removed after it, so a reader may meet a link whose event
// is gone or no longer lists the schedule (a crash, a lost race) but never an event its schedule
// cannot find; readers skip such links.
import { batchGet, deleteItem, entityKey, ENTITY_TYPES, fromItem, keyString, putItem, queryItems } from '../store/items';
import { insertEntity, loadEntity, removeEntity, saveEntity } from '../store/entities';
import { readCounts } from '../store/counters';
import type { EventRecord } from './records';

const TYPE = ENTITY_TYPES.event;

export function scheduleLinkPartition(accountId: string, scheduleId: string): string {
  return `A#${accountId}#SKD#${scheduleId}#EVT`;
}

function childPartition(accountId: string, parentId: string): string {
  return `A#${accountId}#EVT#P#${parentId}`;
}

/** Counter (in the account's EVT counts) of the events in one schedule: exact totals for its list. */
export function scheduleCounter(scheduleId: string): string {
  return `skd:${scheduleId}`;
}

const countsOf = (record: EventRecord) => record.schedule_ids.map(scheduleCounter);

const indexKeysOf = (record: EventRecord) =>
  record.parent_id ? { gsi1pk: childPartition(record.account_id, record.parent_id), gsi1sk: record.id } : {};

async function putLinks(accountId: string, eventId: string, scheduleIds: string[]): Promise<void> {
  await Promise.all(scheduleIds.map((id) => putItem({ pk: scheduleLinkPartition(accountId, id), sk: eventId })));
}

async function deleteLinks(accountId: string, eventId: string, scheduleIds: string[]): Promise<void> {
  await Promise.all(scheduleIds.map((id) => deleteItem({ pk: scheduleLinkPartition(accountId, id), sk: eventId })));
}

export async function getEvent(accountId: string, id: string): Promise<EventRecord | null> {
  return loadEntity<EventRecord>(accountId, TYPE, id);
}

export async function insertEvent(record: EventRecord): Promise<void> {
  await putLinks(record.account_id, record.id, record.schedule_ids);
  if (!(await insertEntity(TYPE, record, { indexKeys: indexKeysOf(record), counts: countsOf(record) }))) {
    throw new Error(`event ${record.id} already exists`);
  }
}

/** Saves `next` (version raised by one) over `before`; false when another write came first. */
export async function saveEvent(next: EventRecord, before: EventRecord): Promise<boolean> {
  const added = next.schedule_ids.filter((id) => !before.schedule_ids.includes(id));
  const removed = before.schedule_ids.filter((id) => !next.schedule_ids.includes(id));
  await putLinks(next.account_id, next.id, added);
  const saved = await saveEntity(TYPE, next, {
    indexKeys: indexKeysOf(next),
    counts: countsOf(next),
    countsBefore: countsOf(before),
  });
  if (!saved) return false;
  await deleteLinks(next.account_id, next.id, removed);
  return true;
}

export async function deleteEventRecord(accountId: string, id: string): Promise<EventRecord | null> {
  const removed = await removeEntity<EventRecord>(accountId, TYPE, id, countsOf);
  if (removed) await deleteLinks(accountId, id, removed.schedule_ids);
  return removed;
}

async function loadLinked(accountId: string, scheduleId: string, eventIds: string[]): Promise<EventRecord[]> {
  const keys = eventIds.map((id) => entityKey(accountId, TYPE, id));
  const found = await batchGet(keys);
  const events: EventRecord[] = [];
  for (const key of keys) {
    const item = found.get(keyString(key));
    if (!item) continue;
    const record = fromItem<EventRecord>(item);
    if (record.schedule_ids.includes(scheduleId)) events.push(record);
  }
  return events;
}

/** Every event of a schedule (override children included), newest first. */
export async function eventsOfSchedule(accountId: string, scheduleId: string): Promise<EventRecord[]> {
  const links = await queryItems(scheduleLinkPartition(accountId, scheduleId), { forward: false });
  return loadLinked(accountId, scheduleId, links.map((link) => String(link.sk)));
}

/** The first `limit` events of a schedule in creation order, and the schedule's exact event count. */
export async function schedulePage(
  accountId: string,
  scheduleId: string,
  forward: boolean,
  limit: number,
): Promise<{ events: EventRecord[]; total: number }> {
  const [links, counts] = await Promise.all([
    queryItems(scheduleLinkPartition(accountId, scheduleId), { forward, limit }),
    readCounts(accountId, TYPE),
  ]);
  const events = await loadLinked(accountId, scheduleId, links.map((link) => String(link.sk)));
  return { events, total: counts[scheduleCounter(scheduleId)] ?? 0 };
}

/**
 * The override children of an event. Children live in their parent's schedules, so they are read
 * from those schedules' links (strongly consistent: a delete right after an override still finds
 * it) and from gsi1 (children of an event in no schedule; eventually consistent).
 */
export async function childrenOf(accountId: string, parentId: string, scheduleIds: readonly string[]): Promise<EventRecord[]> {
  const [indexed, ...inSchedules] = await Promise.all([
    queryItems(childPartition(accountId, parentId), { index: 'gsi1' }).then((items) => items.map((item) => fromItem<EventRecord>(item))),
    ...scheduleIds.map((scheduleId) => eventsOfSchedule(accountId, scheduleId)),
  ]);
  const children = new Map<string, EventRecord>();
  for (const event of [...indexed, ...inSchedules.flat()]) {
    if (event.parent_id === parentId) children.set(event.id, event);
  }
  return [...children.values()];
}

/** Every event of the account (list without a usable index). */
export async function allEvents(accountId: string): Promise<EventRecord[]> {
  const items = await queryItems(`A#${accountId}#${TYPE}`, { forward: false });
  return items.map((item) => fromItem<EventRecord>(item));
}
