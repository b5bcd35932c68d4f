// Data access for events (keys and access patterns: lib/events/ACCESS-PATTERNS.md).
//   event              A#<acc>#EVT / <id>                   gsi1: A#<acc>#EVT#P#<parent id> / <id> (overrides only)
//   schedule link      A#<acc>#SKD#<schedule id>#EVT / <event id>   (one per schedule the event is in)
//   counters           A#<acc>#COUNT / EVT                  total, skd:<schedule id> per schedule
// Links are written before the event and removed after it, so a reader may meet a link whose event
// is gone or no longer lists the schedule (a crash, a lost race) but never an event its schedule
// cannot find; readers skip such links.
import { entityStore } from '../store/entity-store';
import { deleteItem, putItem, queryItems } from '../store/items';
import type { EventRecord } from './records';

const scheduleLinkPartition = (accountId: string, scheduleId: string) => `A#${accountId}#SKD#${scheduleId}#EVT`;
const childPartition = (accountId: string, parentId: string) => `A#${accountId}#EVT#P#${parentId}`;

/** Counter (in the account's EVT counts) of the events in one schedule: exact totals for its list. */
const scheduleCounter = (scheduleId: string) => `skd:${scheduleId}`;

const events = entityStore<EventRecord>({
  kind: 'event',
  audit: { objectType: 'event' },
  indexKeys: (record) => (record.parent_id ? { gsi1pk: childPartition(record.account_id, record.parent_id), gsi1sk: record.id } : {}),
  counts: (record) => record.schedule_ids.map(scheduleCounter),
});

async function putLinks(accountId: string, eventId: string, scheduleIds: string[]): Promise<void> {
  await Promise.all(scheduleIds.map((id) => putItem({ pk: scheduleLinkPartition(accountId, id), sk: eventId })));
}

async function deleteLinks(accountId: string, eventId: string, scheduleIds: string[]): Promise<void> {
  await Promise.all(scheduleIds.map((id) => deleteItem({ pk: scheduleLinkPartition(accountId, id), sk: eventId })));
}

export const getEvent = events.get;
export const nextEventTinyId = events.nextTinyId;
export const eventCollection = events.collection;

export async function insertEvent(record: EventRecord): Promise<void> {
  await putLinks(record.account_id, record.id, record.schedule_ids);
  if (!(await events.insert(record))) throw new Error(`event ${record.id} already exists`);
}

/** Saves `next` (version raised by one) over `before`; false when another write came first. */
export async function saveEvent(next: EventRecord, before: EventRecord): Promise<boolean> {
  const added = next.schedule_ids.filter((id) => !before.schedule_ids.includes(id));
  const removed = before.schedule_ids.filter((id) => !next.schedule_ids.includes(id));
  await putLinks(next.account_id, next.id, added);
  if (!(await events.save(next, before))) return false;
  await deleteLinks(next.account_id, next.id, removed);
  return true;
}

export async function removeEvent(accountId: string, id: string): Promise<EventRecord | null> {
  const removed = await events.remove(accountId, id);
  if (removed) await deleteLinks(accountId, id, removed.schedule_ids);
  return removed;
}

/** The linked events that still list the schedule, in link order. */
async function linkedEvents(
  accountId: string,
  scheduleId: string,
  links: Record<string, unknown>[],
  options: { consistent?: boolean } = {},
): Promise<EventRecord[]> {
  const found = await events.getMany(
    accountId,
    links.map((link) => String(link.sk)),
    options,
  );
  return found.filter((record) => record.schedule_ids.includes(scheduleId));
}

/** Every event of a schedule (override children included), newest first. */
export async function listEventsOfSchedule(
  accountId: string,
  scheduleId: string,
  options: { consistent?: boolean } = {},
): Promise<EventRecord[]> {
  const links = await queryItems(scheduleLinkPartition(accountId, scheduleId), { forward: false, ...options });
  return linkedEvents(accountId, scheduleId, links, options);
}

/** The first `limit` events of a schedule in creation order, and the schedule's exact event count. */
export async function firstEventsOfSchedule(
  accountId: string,
  scheduleId: string,
  forward: boolean,
  limit: number,
): Promise<{ events: EventRecord[]; total: number }> {
  const [links, counts] = await Promise.all([
    queryItems(scheduleLinkPartition(accountId, scheduleId), { forward, limit }),
    events.counts(accountId),
  ]);
  return { events: await linkedEvents(accountId, scheduleId, links), total: counts[scheduleCounter(scheduleId)] ?? 0 };
}

/**
 * The override children of an event. Children live in their parent's schedules, so they are read
 * from those schedules' links (strongly consistent: a delete right after an override still finds
 * it) and from gsi1 (children of an event in no schedule; eventually consistent).
 */
export async function listChildEvents(accountId: string, parentId: string, scheduleIds: readonly string[]): Promise<EventRecord[]> {
  const [indexed, ...inSchedules] = await Promise.all([
    events.query(childPartition(accountId, parentId), { index: 'gsi1' }),
    ...scheduleIds.map((scheduleId) => listEventsOfSchedule(accountId, scheduleId)),
  ]);
  const children = new Map<string, EventRecord>();
  for (const event of [...indexed, ...inSchedules.flat()]) {
    if (event.parent_id === parentId) children.set(event.id, event);
  }
  return [...children.values()];
}

/** Every event of the account, newest first (lists without a usable index). */
export const listAllEvents = (accountId: string) => events.list(accountId);
