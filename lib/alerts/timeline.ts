// An alert's timeline (docs/api.md#alerts): every change of an alert writes a log owned by the alert –
// who (source_id), what (action, old and new status) and when. GET /incident/:id/logs and
// GET /log?owner_id=alt_… read it back, oldest first.
import { derivedUlid, newId, prefixId } from '../ids';
import type { LogRecord } from '../logs/records';
import { packEntries, packIds } from '../logs/packed';
import { getLog, insertFreshTimelineLog, insertTimelineLog, insertTimelinePack, TIMELINE_COUNT, timelineEntriesCount } from '../logs/store';
import { actorPrefixId } from './actor';
import { publishAlertEvent } from './alert-events';
import type { Actor, AlertRecord, AlertStatus } from './records';

export { actorPrefixId };

/** (Kept here for the alert area's callers; lib/ids.ts holds it.) */
export { derivedUlid };

export type TimelineAction =
  | 'created'
  | 'acknowledged'
  | 'resolved'
  | 'rejected'
  | 'archived'
  | 'dropped'
  | 'handoff'
  | 'updated'
  | 'routed'
  | 'router'
  | 'suppressed'
  | 'automation'
  | 'deduplicated'
  | 'deleted'
  // escalation's steps (lib/escalation), written by the service itself
  | 'escalated'
  | 'layer_skipped'
  | 'repeated'
  | 'reassigned'
  | 'exhausted'
  | 'reopened'
  | 'superseded'
  | 'timed_out'
  | 'unreachable';

export interface TimelineEntry {
  alert: AlertRecord;
  action: TimelineAction;
  /** Who: an account user or integration; absent for the service's own steps (routing). */
  actor?: Actor;
  oldStatus: AlertStatus | null;
  newStatus: AlertStatus | null;
  time: string;
  /** Further details (changed fields, handoff target, the inbound log of a duplicate…). */
  details?: Record<string, unknown>;
  /** A chosen id (idempotent writes); default: a new ULID. */
  id?: string;
}

export function timelineLog(entry: TimelineEntry): LogRecord {
  const alertPrefix = prefixId('alert', entry.alert.id);
  const who = entry.actor ? actorPrefixId(entry.actor) : 'system';
  const statusPart =
    entry.oldStatus && entry.newStatus && entry.oldStatus !== entry.newStatus ? ` (${entry.oldStatus} → ${entry.newStatus})` : '';
  return {
    id: entry.id ?? newId(),
    account_id: entry.alert.account_id,
    type: 'alert',
    subtype: null,
    content: `Alert #${entry.alert.tiny_id} ${entry.action} by ${who}${statusPart}`,
    owner_id: alertPrefix,
    source_id: entry.actor ? who : alertPrefix,
    level: 1,
    meta: {},
    data: {
      action: entry.action,
      actor: entry.actor ? { type: entry.actor.type, id: who } : { type: 'System', id: null },
      old_status: entry.oldStatus,
      new_status: entry.newStatus,
      time: entry.time,
      ...(entry.details ?? {}),
    },
    created_at: entry.time,
    updated_at: entry.time,
    version: 1,
  };
}

/** The counter delta of one timeline entry, for a caller that adds it to its own counter update. */
export const TIMELINE_ENTRY_COUNT: Record<string, number> = TIMELINE_COUNT;

/** The counter delta of several timeline entries (routing's hops and outcome), for the same. */
export { timelineEntriesCount };

/**
 * How an entry is written. `counted`: the caller counts it in its own counter update. `fresh`: the
 * write that chose its id (an alert's insert, the routing write naming the entry, an escalation
 * step's commit of its outbox) succeeded just now, so no earlier attempt wrote it and it is put like
 * a new one, unconditionally. A duplicate running at the same time (a redelivered message, a second
 * attempt at the same alert, a take-over of the outbox) may still write the same entry through the
 * conditional path: only the write that chose the id may count it, so a fresh entry is always counted
 * by that write: by its caller (`counted`) or here.
 */
export type TimelineWrite = { counted?: boolean; fresh?: boolean };

/**
 * Writes a timeline entry and counts it (lib/logs/store.ts TIMELINE_COUNT), unless the caller
 * counts it in its own counter update (`counted`). With a chosen id the write is idempotent: an
 * entry already there stays and is not counted again.
 */
export async function recordTimeline(entry: TimelineEntry, options: TimelineWrite = {}): Promise<LogRecord> {
  const log = timelineLog(entry);
  const counted = options.counted ?? false;
  if (entry.id === undefined || options.fresh) {
    // A new ULID cannot exist yet: the put needs no condition and may share a BatchWrite. The alert
    // event goes out beside it (outgoing webhooks, alert-events.ts).
    await Promise.all([insertFreshTimelineLog(log, counted), publishAlertEvent(entry, log.id)]);
    return log;
  }
  // A chosen id may have been written by an earlier attempt that stopped before publishing: the event
  // is published again, which is harmless (webhook deliveries are keyed by the entry's id).
  const [inserted] = await Promise.all([insertTimelineLog(log, counted), publishAlertEvent(entry, log.id)]);
  if (inserted) return log;
  return (await getLog(log.account_id, log.id)) ?? log;
}

/**
 * Entries one step writes in the same millisecond, in their order, as ONE item (lib/logs/packed.ts):
 * the first keeps its id, the others take the ids right after it. Each entry's `id` is the one it
 * would have alone: a first id already written alone (by a version that did not pack, its outbox
 * carried out again now) has the others written alone under theirs, as that version would have (a
 * routing's entries carry the pack's ids already: lib/alert-routing/route-alert.ts). Idempotent as
 * recordTimeline with chosen ids; counted here unless `counted`; `fresh` as recordTimeline's.
 */
export async function recordTimelinePack(entries: readonly TimelineEntry[], options: TimelineWrite = {}): Promise<void> {
  const single = (entry: TimelineEntry) => recordTimeline(entry, options);
  if (entries.length < 2 || entries.some((entry) => entry.id === undefined)) {
    await Promise.all(entries.map(single));
    return;
  }
  const ids = packIds(entries[0].id!, entries.length);
  const logs = entries.map((entry, i) => timelineLog({ ...entry, id: ids[i] }));
  // Entries the compact form would not give back whole are written one by one.
  if (!packEntries(logs)) {
    await Promise.all(entries.map(single));
    return;
  }
  const [outcome] = await Promise.all([
    insertTimelinePack(logs, options.counted ?? false, options.fresh ?? false),
    // Published beside the write, as recordTimeline does (deliveries are keyed by the entry's id).
    ...entries.map((entry, i) => publishAlertEvent(entry, ids[i])),
  ]);
  // An entry written alone under the first id (a rare retry across the deploy): the others are written
  // under their own ids too, and their events published once more under those.
  if (outcome === 'single') await Promise.all(entries.slice(1).map(single));
  // Too large together (a routing's many long hops): each alone, under the same ids.
  if (outcome === 'too-large') await Promise.all(entries.map(single));
}

/** The timeline entry of a change made through the API: the alert as read (`before`) and as saved. */
export function recordChange(
  action: TimelineAction,
  before: AlertRecord,
  after: AlertRecord,
  actor: Actor,
  time: string,
  details: Record<string, unknown>,
): Promise<LogRecord> {
  return recordTimeline({ alert: after, action, actor, oldStatus: before.status, newStatus: after.status, time, details });
}
