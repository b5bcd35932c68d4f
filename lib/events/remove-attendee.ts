// When an account user is deleted, they stop attending events: otherwise schedules would keep
// putting a person who no longer exists on call. An event left with no attendee at all is deleted
// (with its overrides) — an event must have at least one attendee, and an override without one
// would silence its parent's occurrence. For the account-user deletion to call.
import { removeEventTree } from './delete-event';
import { allEvents, getEvent, saveEvent } from './store';

export async function removeAttendeeFromEvents(accountId: string, accountUserId: string): Promise<void> {
  const attended = (await allEvents(accountId)).filter((e) => e.event_attendees.some((a) => a.attendee_id === accountUserId));
  await Promise.all(
    attended.map(async (event) => {
      for (let attempt = 0; attempt < 10; attempt++) {
        const current = attempt === 0 ? event : await getEvent(accountId, event.id);
        if (!current || !current.event_attendees.some((a) => a.attendee_id === accountUserId)) return;
        const remaining = current.event_attendees
          .filter((a) => a.attendee_id !== accountUserId)
          .map((a, position) => ({ ...a, position }));
        if (remaining.length === 0) {
          await removeEventTree(accountId, current.id);
          return;
        }
        const next = { ...current, event_attendees: remaining, version: current.version + 1, updated_at: new Date().toISOString() };
        if (await saveEvent(next, current)) return;
      }
      throw new Error(`event ${event.id} kept changing; attendee ${accountUserId} not removed`);
    }),
  );
}
