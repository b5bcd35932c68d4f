// When the account's identity provider deactivates an account user (SCIM `active: false`), every event
// they attend records the period from that instant on, so that their turns from then on go to the
// others (lib/oncall/oncall-spans.ts) while every entry before it stays as it was; reactivating them
// closes the period, and their turns come back from then on. For the account-user use case to call.
import { editEventsAttendedBy } from './attended-events';
import type { EventAttendeeRecord } from './records';
import { nowIso } from '../clock';

type Periods = NonNullable<EventAttendeeRecord['inactive']>;

function withPeriodOpened(periods: Periods, at: string): Periods | null {
  if (periods.some((period) => period.until === null)) return null;
  return [...periods, { from: at, until: null }];
}

function withPeriodClosed(periods: Periods, at: string): Periods | null {
  if (!periods.some((period) => period.until === null)) return null;
  // A period closed at its own start (reactivated in the same instant) is no period at all.
  return periods
    .map((period) => (period.until === null ? { ...period, until: at } : period))
    .filter((period) => period.until !== period.from);
}

export async function markAttendeeActive(accountId: string, accountUserId: string, active: boolean, at: string): Promise<void> {
  const change = active ? withPeriodClosed : withPeriodOpened;
  await editEventsAttendedBy(
    accountId,
    accountUserId,
    (current) => {
      let changed = false;
      const attendees = current.event_attendees.map((attendee) => {
        if (attendee.attendee_id !== accountUserId) return attendee;
        const periods = change(attendee.inactive ?? [], at);
        if (!periods) return attendee;
        changed = true;
        const { inactive: _before, ...rest } = attendee;
        return periods.length ? { ...rest, inactive: periods } : rest;
      });
      return changed ? { ...current, event_attendees: attendees, version: current.version + 1, updated_at: nowIso() } : null;
    },
    `not marked ${active ? 'active' : 'inactive'}`,
  );
}
