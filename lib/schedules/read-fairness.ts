// GET /api/v4/schedules/:id/fairness (docs/api.md#fairness): how a window's on-call time is shared
// out, per person and layer: hours, the hours at night and on weekends on that person's own clock
// (their profile's time zone), and shifts. The console's fairness table. The spans and the time per
// person are coverage's (lib/oncall/coverage.ts), so the two pages never disagree.
import type * as z from 'zod';
import { getAccountUsers } from '../account-users/store';
import type { Principal } from '../http/principal';
import { nightAndWeekend } from '../oncall/fairness';
import { resolveTimeZone } from '../oncall/time-zones';
import { iso, windowCoverage } from './read-coverage';
import type { ScheduleFairnessV4 } from './schemas';

export async function scheduleFairness(
  principal: Principal,
  rawId: string,
  params: URLSearchParams,
): Promise<z.input<typeof ScheduleFairnessV4>> {
  const {
    start,
    end,
    coverage: { people },
  } = await windowCoverage(principal, rawId, params);
  const profiles = await getAccountUsers(principal.accountId, [...new Set(people.map((person) => person.attendeeId))]);
  const zoneOf = new Map(profiles.map((profile) => [profile.id, resolveTimeZone(profile.user.time_zone) ?? 'UTC']));
  return {
    start: iso(start),
    end: iso(end),
    people: people.map((person) => {
      // Someone who left the account still took their shifts: counted on UTC's clock.
      const timeZone = zoneOf.get(person.attendeeId) ?? 'UTC';
      const split = nightAndWeekend(person.onCall, timeZone);
      return {
        account_user_id: person.attendeeId,
        layer: person.layer,
        time_zone: timeZone,
        seconds: person.onCallMs / 1000,
        night_seconds: split.nightMs / 1000,
        weekend_seconds: split.weekendMs / 1000,
        spans: person.spans,
      };
    }),
  };
}
