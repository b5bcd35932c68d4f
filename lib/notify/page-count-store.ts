// Pages per person and day (GET /api/v4/reports/pages; lib/notify/ACCESS-PATTERNS.md, "Pages per
// person and day"): one counter item per account user and UTC day, added to when a page's
// notification is first recorded (an escalation step's pages to one person are summed into one ADD by
// withCountsDeferred) and when the person first acknowledges an alert. Whether a page came at night
// (22:00–07:00 on the person's wall clock) is decided when it is recorded, in the zone the person has
// then, and stored as a count: a later move to another zone changes no past night.
//   person day   A#<acc>#NTF#PD / <YYYY-MM-DD>#<account user id>
//                {<channel>: n, night: n, acks: n, and the same per team of the alert: <team>#<channel>, <team>#night, <team>#acks}
import { addToCounterItem } from '../store/grouped-writes';
import { queryItems } from '../store/items';
import { CHANNELS, isChannel, type Channel } from './records';

const personDayPartition = (accountId: string) => `A#${accountId}#NTF#PD`;
const personDaySortKey = (day: string, accountUserId: string) => `${day}#${accountUserId}`;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The fields a count goes to: the account's, and each team's (prefixed). */
function spread(fields: Record<string, number>, teamIds: readonly string[]): Record<string, number> {
  const out = { ...fields };
  for (const team of new Set(teamIds)) for (const [field, n] of Object.entries(fields)) out[`${team}#${field}`] = n;
  return out;
}

export interface PageCount {
  accountId: string;
  accountUserId: string;
  channel: Channel;
  /** When the page's notification was recorded (ms). */
  at: number;
  /** The teams of the page's alert (destinations and assignment). */
  teamIds: readonly string[];
  night: boolean;
}

/** Counts one page notification, first recorded at `at`. */
export function countPage(page: PageCount): Promise<void> {
  const fields: Record<string, number> = { [page.channel]: 1 };
  if (page.night) fields.night = 1;
  return addToCounterItem(
    { pk: personDayPartition(page.accountId), sk: personDaySortKey(dayOf(page.at), page.accountUserId) },
    spread(fields, page.teamIds),
  );
}

/** Counts a person's first acknowledgement of an alert (of these teams), made at `at`. */
export function countAcknowledgement(accountId: string, accountUserId: string, at: number, teamIds: readonly string[]): Promise<void> {
  return addToCounterItem(
    { pk: personDayPartition(accountId), sk: personDaySortKey(dayOf(at), accountUserId) },
    spread({ acks: 1 }, teamIds),
  );
}

/** One person's figures of one day, for the account or for one team. */
export interface PersonDayFigures {
  day: string;
  accountUserId: string;
  pages: Partial<Record<Channel, number>>;
  night: number;
  acknowledged: number;
}

/**
 * The person-day figures of the days [fromDay, toDay] (`YYYY-MM-DD`, UTC): one Query of the days'
 * items (the people paged or acknowledging on them), read for the account or for one team.
 */
export async function readPageDays(accountId: string, fromDay: string, toDay: string, teamId?: string): Promise<PersonDayFigures[]> {
  const prefix = teamId === undefined ? '' : `${teamId}#`;
  // The fields of the account or of that team only: not the other teams' nor the write tokens.
  const project = ['sk', ...[...CHANNELS, 'night', 'acks'].map((name) => `${prefix}${name}`)];
  const items = await queryItems(personDayPartition(accountId), { skBetween: [`${fromDay}#`, `${toDay}#~`], project });
  const figures: PersonDayFigures[] = [];
  for (const item of items) {
    const sk = String(item.sk);
    const entry: PersonDayFigures = { day: sk.slice(0, 10), accountUserId: sk.slice(11), pages: {}, night: 0, acknowledged: 0 };
    let any = false;
    for (const [field, value] of Object.entries(item)) {
      if (typeof value !== 'number' || !field.startsWith(prefix)) continue;
      const name = field.slice(prefix.length);
      if (name.includes('#') || value <= 0) continue;
      if (isChannel(name)) entry.pages[name] = value;
      else if (name === 'night') entry.night = value;
      else if (name === 'acks') entry.acknowledged = value;
      else continue;
      any = true;
    }
    if (any) figures.push(entry);
  }
  return figures;
}
