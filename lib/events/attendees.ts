// Attendees of events are account users. The v4 interface names them by account user id (ULID or
// acu_), the earlier one by user id (usr_ or ULID): inside one account a user has one account user
// (docs/api.md#ids), so a user id names that account user.
import type { AccountUserRecord } from '../account-users/records';
import { getAccountUserOfUser, getAccountUsers } from '../account-users/store';
import { parseId, parsePrefixedId } from '../ids';

export interface AttendeeRef {
  attendee_id: string;
  user_id: string;
  /** Set when the account user is deactivated (SCIM active: false) as they are named: an event they
   * join then holds them inactive from that time, as the deactivation did for the events they were in. */
  deactivated_at?: string;
}

/** The attendee an account user makes. */
function attendeeOf(record: AccountUserRecord): AttendeeRef {
  return { attendee_id: record.id, user_id: record.user_id, ...(record.deactivated_at ? { deactivated_at: record.deactivated_at } : {}) };
}

async function loadAccountUsers(accountId: string, ids: string[]): Promise<Map<string, AccountUserRecord>> {
  return new Map((await getAccountUsers(accountId, ids)).map((record) => [record.id, record]));
}

function dedupe(list: AttendeeRef[]): AttendeeRef[] {
  const seen = new Set<string>();
  return list.filter((a) => (seen.has(a.attendee_id) ? false : (seen.add(a.attendee_id), true)));
}

/** account_user_ids (v4) → attendees in the order given; unknown ids add messages naming `field`. */
export async function attendeesFromAccountUserIds(
  accountId: string,
  field: string,
  raw: readonly string[],
  messages: string[],
): Promise<AttendeeRef[]> {
  const ids: string[] = [];
  for (const value of raw) {
    const id = parseId('accountUser', value);
    if (!id) messages.push(`${field} contains an id that is not an account user: ${value}`);
    else ids.push(id);
  }
  const found = await loadAccountUsers(accountId, [...new Set(ids)]);
  const attendees: AttendeeRef[] = [];
  for (const id of ids) {
    const record = found.get(id);
    if (!record) messages.push(`${field} contains an unknown account user: ${id}`);
    else attendees.push(attendeeOf(record));
  }
  return dedupe(attendees);
}

/** attendees (earlier interface): usr_ ids (or bare ULIDs of users); acu_ ids are read too. */
export async function attendeesFromUserIds(
  accountId: string,
  field: string,
  raw: readonly string[],
  messages: string[],
): Promise<AttendeeRef[]> {
  const resolved = await Promise.all(
    raw.map(async (value): Promise<AttendeeRef | string> => {
      const prefixed = parsePrefixedId(value);
      if (prefixed && prefixed.kind === 'accountUser') {
        const record = (await loadAccountUsers(accountId, [prefixed.id])).get(prefixed.id);
        return record ? attendeeOf(record) : `${field} contains an unknown account user: ${value}`;
      }
      const userId = prefixed?.kind === 'user' ? prefixed.id : prefixed ? null : parseId('user', value);
      if (!userId) return `${field} contains an id that is not a user: ${value}`;
      const record = await getAccountUserOfUser(userId, accountId);
      if (record) return attendeeOf(record);
      // A bare ULID may also be an account user's own id.
      const direct = prefixed ? undefined : (await loadAccountUsers(accountId, [userId])).get(userId);
      return direct ? attendeeOf(direct) : `${field} contains an unknown user: ${value}`;
    }),
  );
  const attendees: AttendeeRef[] = [];
  for (const entry of resolved) {
    if (typeof entry === 'string') messages.push(entry);
    else attendees.push(entry);
  }
  return dedupe(attendees);
}
