// POST /api/v4/schedules/:id/calendar and /api/v4/account_users/:id/calendar (contract §14): a new
// secret address. The token (256 random bits) is answered once; only its SHA-256 is kept.
import { generateToken, sha256 } from '../auth/passwords';
import { nowIso } from '../clock';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import type { CalendarOwner } from './calendar-owners';
import type { CalendarAddressV4 } from './schemas';
import { insertCalendarFeed } from './store';
import type * as z from 'zod';

export const FEED_PATH = '/public/calendars/';

export async function createCalendarFeed(
  principal: Principal,
  owner: CalendarOwner,
  baseUrl: string,
): Promise<z.input<typeof CalendarAddressV4>> {
  const token = generateToken();
  const stored = await insertCalendarFeed({
    token_hash: sha256(token),
    account_id: principal.accountId,
    scope: owner.scope,
    owner_id: owner.id,
    created_by: principal.accountUserId,
    created_at: nowIso(),
  });
  if (!stored) throw new Conflict('that calendar token is already in use; ask again');
  return { url: `${baseUrl}${FEED_PATH}${token}.ics` };
}
