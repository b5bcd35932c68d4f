// When an account user is deleted, they stop attending events: otherwise schedules would keep
// putting a person who no longer exists on call. An event left with no attendee at all is deleted
// (with its overrides) — an event must have at least one attendee, and an override without one
// would silence its parent's occurrence. For the account-user deletion to call.
import { done, updateWithRetry } from '../store/retry';
import { removeEventTree } from './delete-event';
import type { EventRecord } from './records';
import { getEvent, listAllEvents, saveEvent } from './store';
import { nowIso } from '../clock';

export async function removeAttendeeFromEvents(accountId: string, accountUserId: string): Promise<void> {
  const attended = (await listAllEvents(accountId)).filter((e) => e.event_attendees.some((a) => a.attendee_id === accountUserId));
  await Promise.all(
    attended.map((event) =>
      updateWithRetry<EventRecord, void>({
        load: (attempt) => (attempt === 0 ? event : getEvent(accountId, event.id)),
        edit: async (current) => {
          if (!current || !current.event_attendees.some((a) => a.attendee_id === accountUserId)) return done();
          const remaining = current.event_attendees
            .filter((a) => a.attendee_id !== accountUserId)
            .map((a, position) => ({ ...a, position }));
          if (remaining.length === 0) {
            await removeEventTree(accountId, current.id);
            return done();
          }
          return { ...current, event_attendees: remaining, version: current.version + 1, updated_at: nowIso() };
        },
        save: (next, current) => saveEvent(next, current),
        saved: () => undefined,
        exhausted: () => {
          throw new Error(`event ${event.id} kept changing; attendee ${accountUserId} not removed`);
        },
      }),
    ),
  );
}
