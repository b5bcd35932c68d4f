// When an account user is deleted, they stop attending events: otherwise schedules would keep
// putting a person who no longer exists on call. An event left with no attendee at all is deleted
// (with its overrides) — an event must have at least one attendee, and an override without one
// would silence its parent's occurrence. For the account-user deletion to call.
import { editEventsAttendedBy } from './attended-events';
import { removeEventTree } from './delete-event';
import { nowIso } from '../clock';

export async function removeAttendeeFromEvents(accountId: string, accountUserId: string): Promise<void> {
  await editEventsAttendedBy(
    accountId,
    accountUserId,
    async (current) => {
      const remaining = current.event_attendees.filter((a) => a.attendee_id !== accountUserId).map((a, position) => ({ ...a, position }));
      if (remaining.length === 0) {
        await removeEventTree(accountId, current.id);
        return null;
      }
      return { ...current, event_attendees: remaining, version: current.version + 1, updated_at: nowIso() };
    },
    'not removed',
  );
}
