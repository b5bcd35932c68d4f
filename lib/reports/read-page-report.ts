// GET /api/v4/reports/pages (contract §14, docs/api.md#reports): per person, the pages recorded in the
// window by channel, those at night on their wall clock, and the alerts they were first to
// acknowledge, summed from the person-day counters (lib/notify/page-count-store.ts): one Query of the
// window's days and one BatchGet of the people named.
import type * as z from 'zod';
import { getAccountUsers } from '../account-users/store';
import type { Principal } from '../http/principal';
import { readPageDays } from '../notify/page-count-store';
import { CHANNELS } from '../notify/records';
import { dayString, parseReportQuery } from './report-window';
import type { PageReportPerson, PageReportV4 } from './schemas';

type Person = z.input<typeof PageReportPerson>;

export async function pageReport(principal: Principal, params: URLSearchParams): Promise<z.input<typeof PageReportV4>> {
  const window = await parseReportQuery(principal, params, { buckets: false });
  const days = await readPageDays(principal.accountId, dayString(window.start), dayString(window.end - 1), window.teamId ?? undefined);
  const people = new Map<string, Person>();
  for (const day of days) {
    let person = people.get(day.accountUserId);
    if (!person) {
      const pages = Object.fromEntries(CHANNELS.map((channel) => [channel, 0])) as Person['pages'];
      person = { account_user_id: day.accountUserId, name: null, pages, total_pages: 0, night_pages: 0, acknowledged: 0 };
      people.set(day.accountUserId, person);
    }
    for (const [channel, n] of Object.entries(day.pages) as Array<[keyof Person['pages'], number]>) {
      person.pages[channel] += n;
      person.total_pages += n;
    }
    person.night_pages += day.night;
    person.acknowledged += day.acknowledged;
  }
  for (const record of await getAccountUsers(principal.accountId, [...people.keys()])) {
    const person = people.get(record.id);
    if (person) person.name = record.user.name;
  }
  const ordered = [...people.values()].sort(
    (a, b) => b.total_pages - a.total_pages || b.acknowledged - a.acknowledged || (a.name ?? '~').localeCompare(b.name ?? '~'),
  );
  return { start: new Date(window.start).toISOString(), end: new Date(window.end).toISOString(), team_id: window.teamId, people: ordered };
}
