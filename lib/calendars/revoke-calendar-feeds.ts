// DELETE /api/v4/schedules/:id/calendar and /api/v4/account_users/:id/calendar (contract §14):
// every address of that schedule or person stops answering at once.
import type { CalendarOwner } from './calendar-owners';
import { removeCalendarFeedsOf } from './store';
import type { Principal } from '../http/principal';

export async function revokeCalendarFeeds(principal: Principal, owner: CalendarOwner): Promise<number> {
  return removeCalendarFeedsOf(principal.accountId, owner.scope, owner.id);
}
