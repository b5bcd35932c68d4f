// Changes to every event one account user attends, each a versioned write retried on a lost race (an
// admin editing the event meanwhile loses nothing): their removal when they are deleted
// (remove-attendee.ts), the periods of their deactivation (attendee-deactivation.ts).
import { done, updateWithRetry } from '../store/retry';
import type { EventRecord } from './records';
import { getEvent, listAllEvents, saveEvent } from './store';

/** `edit` answers the event's next version, or null when there is nothing to write; `what` names the change for the error of an event that kept changing. */
export async function editEventsAttendedBy(
  accountId: string,
  accountUserId: string,
  edit: (current: EventRecord) => Promise<EventRecord | null> | EventRecord | null,
  what: string,
): Promise<void> {
  const attends = (event: EventRecord) => event.event_attendees.some((a) => a.attendee_id === accountUserId);
  const attended = (await listAllEvents(accountId)).filter(attends);
  await Promise.all(
    attended.map((event) =>
      updateWithRetry<EventRecord, void>({
        load: (attempt) => (attempt === 0 ? event : getEvent(accountId, event.id)),
        edit: async (current) => {
          if (!current || !attends(current)) return done();
          return (await edit(current)) ?? done();
        },
        save: (next, current) => saveEvent(next, current),
        saved: () => undefined,
        exhausted: () => {
          throw new Error(`event ${event.id} kept changing; attendee ${accountUserId}: ${what}`);
        },
      }),
    ),
  );
}
