// Flushing a schedule (DELETE /api/v4/schedule/:id/flush) removes every event from it: an event only
// in this schedule is deleted, one that is also in other schedules only leaves this one (it still
// belongs to the others' calendars). Override children sit in their parent's schedules, so they are
// among the events handled here; overrides of deleted events found nowhere else go too.
import { removeEventTree } from '../events/delete-event';
import type { EventRecord } from '../events/records';
import { childrenOf, deleteEventRecord, eventsOfSchedule, getEvent, saveEvent } from '../events/store';
import { Conflict } from '../http/errors';

/** Takes one event out of the schedule; true when that deleted it. */
async function takeOut(accountId: string, event: EventRecord, scheduleId: string): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = attempt === 0 ? event : await getEvent(accountId, event.id);
    if (!current || !current.schedule_ids.includes(scheduleId)) return false;
    const remaining = current.schedule_ids.filter((id) => id !== scheduleId);
    if (remaining.length === 0) return (await deleteEventRecord(accountId, current.id)) !== null;
    const next = { ...current, schedule_ids: remaining, version: current.version + 1, updated_at: new Date().toISOString() };
    if (await saveEvent(next, current)) return false;
  }
  throw new Conflict(`event ${event.id} kept changing while the schedule was flushed; try again`);
}

export async function emptySchedule(accountId: string, scheduleId: string): Promise<void> {
  const events = await eventsOfSchedule(accountId, scheduleId);
  const handled = new Set(events.map((e) => e.id));
  const deleted = (await Promise.all(events.map(async (e) => ((await takeOut(accountId, e, scheduleId)) ? e.id : null)))).filter(
    (id): id is string => id !== null,
  );
  // Overrides of deleted events that were not in this schedule (only through the parent index).
  const strays = (await Promise.all(deleted.map((id) => childrenOf(accountId, id, [])))).flat().filter((child) => !handled.has(child.id));
  await Promise.all(strays.map((child) => removeEventTree(accountId, child.id)));
}
