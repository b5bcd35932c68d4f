// The weekly coverage-gap notice (docs/api.md#coverage-gap-notice): once a week, from Monday 09:00
// UTC, the sweeper looks at every team's schedule over the next 7 days, and when layer 1 has a gap
// (coverage's, lib/oncall/coverage.ts) the team's admins hear of it (template schedule_gap, by
// e-mail and, when they take them, push). A team is first looked at in the first week whose Monday
// 09:00 comes after it was made: a team being set up is not told about the shifts it has not added yet.
//
// Crash-safe without a lock: each notice's id is derived from team, week, person and channel (a
// second look sends nothing new), the team's week is recorded after its notices, and the week of
// the whole pass after every team; a pass that failed on a team runs again the next minute.
import { getAccountUsers } from '../account-users/store';
import { addressOf } from '../account-users/addresses';
import { now as clockNow } from '../clock';
import { derivedUlid } from '../ids';
import { logger } from '../log';
import { renderNotification } from '../notify/content';
import { sendNotification } from '../notify/send';
import { DAY_MS } from '../oncall/civil-calendar';
import { coverageOf } from '../oncall/coverage';
import { spansInWindow } from '../oncall/oncall-spans';
import { resolveTimeZone } from '../oncall/time-zones';
import { whenLoaded } from '../on-first-use';
import { scheduleOncallEvents } from '../schedules/read-oncall';
import type { TeamRecord } from '../teams/records';
import { allTeamsEverywhere } from '../teams/store';
import { getGapPassWeek, getTeamGapWeek, saveGapPassWeek, saveTeamGapWeek } from './store';

const WEEK_MS = 7 * DAY_MS;
/** Monday 09:00 UTC: the notice's hour within its week. */
const NOTICE_OFFSET_MS = 9 * 3_600_000;
const CONCURRENCY = 4;

export interface GapWeek {
  /** ISO week (`2026-W49`) of its Monday. */
  key: string;
  /** When this week's notice is due: its Monday 09:00 UTC. */
  noticeAt: number;
}

/** The week whose notice is the latest one due at `now`. */
export function gapWeekAt(now: number): GapWeek {
  // 1970-01-05 was a Monday.
  const monday = Math.floor((now - NOTICE_OFFSET_MS - 4 * DAY_MS) / WEEK_MS) * WEEK_MS + 4 * DAY_MS;
  // ISO weeks are numbered from the week holding the year's first Thursday.
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return { key: `${year}-W${String(week).padStart(2, '0')}`, noticeAt: monday + NOTICE_OFFSET_MS };
}

export interface GapSweep {
  week: string;
  teams: number;
  withGaps: number;
  notified: number;
  failed: number;
}

/** The notice's body: each gap on the recipient's clock (their zone named), and what to do about it. */
export function gapText(teamName: string, gaps: readonly { start: number; end: number }[], timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const hours = (ms: number) => {
    const value = ms / 3_600_000;
    return `${Number.isInteger(value) ? value : value.toFixed(1)} h`;
  };
  const team = teamName.replace(/\s+/g, ' ').trim() || 'your team';
  return [
    `Layer 1 of ${team}'s schedule has nobody on call at these times (${timeZone}); an alert then pages no one on that layer:`,
    ...gaps.map((gap) => `- ${format.format(gap.start)} – ${format.format(gap.end)} (${hours(gap.end - gap.start)})`),
    'Add a shift or an override to cover them.',
  ].join('\n');
}

/** The week this process already knows was done: the table is read once per process per week. */
let doneWeek: string | null = null;

/** One team: its gaps over the next 7 days on layer 1, told to its admins. Returns notices sent. */
async function checkTeam(team: TeamRecord, week: GapWeek, now: number): Promise<{ gaps: number; sent: number }> {
  if (!team.schedule_id) return { gaps: 0, sent: 0 };
  const events = await scheduleOncallEvents(team.account_id, team.schedule_id);
  // A schedule with no shift at all is one being set up (or unused): no week-long gap notice for it.
  if (events.length === 0) return { gaps: 0, sent: 0 };
  const from = now;
  const to = now + WEEK_MS;
  const layer1 = coverageOf(spansInWindow(events, from, to), [1], from, to).layers.find((layer) => layer.layer === 1);
  const gaps = layer1?.gaps ?? [];
  if (gaps.length === 0) return { gaps: 0, sent: 0 };

  const admins = await getAccountUsers(team.account_id, [...new Set(team.admin_account_user_ids)]);
  if (admins.length === 0) logger.info('coverage gap notice: the team has no admins to tell', { teamId: team.id, week: week.key });
  let sent = 0;
  for (const admin of admins) {
    const timeZone = resolveTimeZone(admin.user.time_zone) ?? 'UTC';
    // A heads-up, not a page: by e-mail always, and to their devices when they take pushes.
    const channels = admin.user.notify_push ? (['email', 'push'] as const) : (['email'] as const);
    for (const channel of channels) {
      const address = addressOf(admin, channel);
      const rendered = await whenLoaded(() =>
        renderNotification({
          template: 'schedule_gap',
          channel,
          accountUser: { name: admin.user.name },
          team: { name: team.name },
          body: gapText(team.name, gaps, timeZone),
          gapCount: gaps.length,
        }),
      );
      await sendNotification({
        id: derivedUlid(week.noticeAt, `gap/${team.id}/${week.key}/${admin.id}/${channel}`),
        accountId: team.account_id,
        accountUserId: admin.id,
        userId: admin.user_id,
        channel,
        to: address.to,
        undeliverable: address.undeliverable,
        template: 'schedule_gap',
        subject: rendered.subject,
        message: rendered.message,
        html: rendered.html,
        sourceKey: `gap/${team.id}/${week.key}`,
      });
      sent += 1;
    }
  }
  return { gaps: gaps.length, sent };
}

/** The sweeper's duty: runs the week's pass once it is due, else reads nothing (after the first look). */
export async function sweepCoverageGaps(now = clockNow()): Promise<GapSweep | { week: string; done: true }> {
  const week = gapWeekAt(now);
  if (doneWeek === week.key) return { week: week.key, done: true };
  if ((await getGapPassWeek()) === week.key) {
    doneWeek = week.key;
    return { week: week.key, done: true };
  }
  const result: GapSweep = { week: week.key, teams: 0, withGaps: 0, notified: 0, failed: 0 };
  const teams: TeamRecord[] = [];
  for await (const team of allTeamsEverywhere()) {
    if (Date.parse(team.created_at) < week.noticeAt) teams.push(team);
  }
  result.teams = teams.length;
  let next = 0;
  const worker = async () => {
    while (next < teams.length) {
      const team = teams[next++];
      try {
        if ((await getTeamGapWeek(team.account_id, team.id)) === week.key) continue;
        const { gaps, sent } = await checkTeam(team, week, now);
        if (gaps > 0) result.withGaps += 1;
        result.notified += sent;
        await saveTeamGapWeek(team.account_id, team.id, week.key);
      } catch (error) {
        result.failed += 1;
        logger.warn('coverage gap notice failed', { teamId: team.id, week: week.key, error: error as Error });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (result.failed === 0) {
    await saveGapPassWeek(week.key);
    doneWeek = week.key;
  }
  return result;
}
