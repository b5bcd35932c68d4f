// Flushing a schedule (DELETE /api/v4/schedule/:id/flush) removes every event from it: an event only
// in this schedule is deleted, one that is also in other schedules only leaves this one (it still
// belongs to the others' calendars). Override children sit in their parent's schedules, so they are
// among the events handled here; overrides of deleted events found nowhere else go too.
import { removeEventTree } from '../events/delete-event';
import type { EventRecord } from '../events/records';
import { getEvent, listChildEvents, listEventsOfSchedule, removeEvent, saveEvent } from '../events/store';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { done, updateWithRetry } from '../store/retry';
import { requireScheduleEditor } from '../teams/team-admins';
import { findSchedule } from './read-schedules';
import { nowIso } from '../clock';

/** Takes one event out of the schedule; true when that deleted it. */
async function takeOut(accountId: string, event: EventRecord, scheduleId: string): Promise<boolean> {
  return updateWithRetry<EventRecord, boolean>({
    load: (attempt) => (attempt === 0 ? event : getEvent(accountId, event.id)),
    edit: async (current) => {
      if (!current || !current.schedule_ids.includes(scheduleId)) return done(false);
      const remaining = current.schedule_ids.filter((id) => id !== scheduleId);
      if (remaining.length === 0) return done((await removeEvent(accountId, current.id)) !== null);
      return { ...current, schedule_ids: remaining, version: current.version + 1, updated_at: nowIso() };
    },
    save: (next, current) => saveEvent(next, current),
    saved: () => false,
    exhausted: () => {
      throw new Conflict(`event ${event.id} kept changing while the schedule was flushed; try again`);
    },
  });
}

export async function emptySchedule(accountId: string, scheduleId: string): Promise<void> {
  const events = await listEventsOfSchedule(accountId, scheduleId);
  const handled = new Set(events.map((e) => e.id));
  const deleted = (await Promise.all(events.map(async (e) => ((await takeOut(accountId, e, scheduleId)) ? e.id : null)))).filter(
    (id): id is string => id !== null,
  );
  // Overrides of deleted events that were not in this schedule (only through the parent index).
  const strays = (await Promise.all(deleted.map((id) => listChildEvents(accountId, id, []))))
    .flat()
    .filter((child) => !handled.has(child.id));
  await Promise.all(strays.map((child) => removeEventTree(accountId, child.id)));
}

export async function flushSchedule(principal: Principal, rawId: string): Promise<void> {
  const current = await findSchedule(principal, rawId);
  await requireScheduleEditor(principal, [current.id], 'flush this schedule');
  await emptySchedule(principal.accountId, current.id);
}
