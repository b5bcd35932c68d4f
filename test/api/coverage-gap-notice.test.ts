// The weekly coverage-gap notice (docs/api.md#coverage-gap-notice) through the real server and the
// service's clock: from Monday 09:00 UTC the sweeper tells a team's admins (template schedule_gap)
// when layer 1 of its schedule has a gap in the next 7 days, once a week; a covered team, a gap on
// another layer, an empty schedule and a team made after the week's notice time tell nobody.
// @module-tag moto
import { describe, expect, it } from 'vitest';
import { gapWeekAt } from '../../lib/escalation/coverage-gap-notice';
import type { ApiClient } from '../support/api-client';
import { testClock } from '../support/dependencies';
import { useService, type TestService } from '../support/runtime';
import { person, type Person } from '../escalation/support';

let service: TestService;
let admin: ApiClient;

useService(async (started) => {
  service = started;
  admin = service.admin;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Notice = { channel: string; subject: string | null; message: string; template: string };

async function noticesOf(who: Person): Promise<Notice[]> {
  const res = await admin.get(`/api/v4/notifications?account_user_id=${who.id}&template=schedule_gap&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Notice[];
}

async function teamWithShifts(name: string, admins: Person[], someone: Person, shifts: [layer: number, from: number, to: number][]) {
  const team = await admin.post('/api/v4/teams', {
    name,
    member_account_user_ids: [someone.id],
    admin_account_user_ids: admins.map((a) => a.id),
  });
  expect(team.status, team.text).toBe(201);
  for (const [layer, from, to] of shifts) {
    // One shift at a time: an event's order in the schedule is its creation's.
    const event = await admin.post('/api/v4/events', {
      schedule_ids: [team.body.schedule_id],
      account_user_ids: [someone.id],
      layer,
      start_datetime: new Date(from).toISOString(),
      end_datetime: new Date(to).toISOString(),
      time_zone: 'UTC',
    });
    expect(event.status, event.text).toBe(201);
  }
  return team.body as { id: string; name: string };
}

describe('the weekly coverage-gap notice', () => {
  it("tells a team's admins of layer 1's gaps in the coming week, once, on their own clock", async () => {
    const nextNotice = gapWeekAt(testClock.now()).noticeAt + 7 * DAY;
    const start = nextNotice - 30 * DAY;
    const [boss, quietBoss, otherBoss, emptyBoss, late, someone] = await Promise.all([
      person(admin, { push: false }),
      person(admin),
      person(admin),
      person(admin),
      person(admin),
      person(admin),
    ]);
    const zone = await admin.put(`/api/v4/account_users/${boss.id}`, { user_attributes: { time_zone: 'Europe/Berlin' } });
    expect(zone.status, zone.text).toBe(200);
    // Covered except [Monday + 2 d 06:00, Monday + 3 d) (the Monday of the next notice, 00:00 UTC).
    const monday = nextNotice - 9 * HOUR;
    const [gappy] = await Promise.all([
      teamWithShifts('Gappy crew', [boss], someone, [
        [1, start, monday + 2 * DAY + 6 * HOUR],
        [1, monday + 3 * DAY, monday + 40 * DAY],
      ]),
      teamWithShifts('Covered crew', [quietBoss], someone, [[1, start, monday + 40 * DAY]]),
      teamWithShifts('Layer two gap crew', [otherBoss], someone, [
        [1, start, monday + 40 * DAY],
        [2, start, monday + DAY],
      ]),
      teamWithShifts('Empty crew', [emptyBoss], someone, []),
    ]);
    // This week's notice time came before these teams were made: nobody hears now.
    await service.runtime.runScheduled('sweeper');
    expect(await noticesOf(boss)).toEqual([]);

    testClock.advance(nextNotice + 60_000 - testClock.now());
    await teamWithShifts('Made too late', [late], someone, [[1, start, monday + DAY]]);
    await service.runtime.runScheduled('sweeper');
    const told = await noticesOf(boss);
    // No pushes for someone who takes none: the e-mail alone.
    expect(told.map((n) => n.channel)).toEqual(['email']);
    expect(told[0].subject).toBe(`Coverage gap ahead for ${gappy.name}: nobody on call on layer 1 once in the next 7 days`);
    // Wednesday 06:00 UTC to Thursday 00:00 UTC is 07:00 to 01:00 in Berlin (winter time, UTC+1).
    const gapStart = new Date(monday + 2 * DAY + 6 * HOUR);
    const day = (d: Date) => d.toLocaleDateString('en-GB', { timeZone: 'Europe/Berlin', weekday: 'short', day: 'numeric', month: 'short' });
    expect(told[0].message).toContain(`- ${day(gapStart)}, 07:00 – ${day(new Date(monday + 3 * DAY))}, 01:00 (18 h)`);
    expect(told[0].message).toContain('(Europe/Berlin)');
    for (const other of [quietBoss, otherBoss, emptyBoss, late]) expect((await noticesOf(other)).map((n) => n.subject)).toEqual([]);

    // Once a week: more sweeps that week tell nobody again.
    testClock.advance(HOUR);
    await service.runtime.runScheduled('sweeper');
    await service.runtime.runScheduled('sweeper');
    expect(await noticesOf(boss)).toHaveLength(1);
    // Six people, five teams and their shifts to set up: slow on a loaded machine.
  }, 90_000);

  it('gives ISO weeks and their Monday 09:00 UTC', () => {
    // Thursday 2026-01-01 is in week 1; Sunday 2027-01-03 09:00 is still in 2026's week 53.
    expect(gapWeekAt(Date.parse('2026-01-05T09:00:00Z'))).toEqual({ key: '2026-W02', noticeAt: Date.parse('2026-01-05T09:00:00Z') });
    expect(gapWeekAt(Date.parse('2026-01-05T08:59:59Z')).key).toBe('2026-W01');
    expect(gapWeekAt(Date.parse('2027-01-03T12:00:00Z'))).toEqual({ key: '2026-W53', noticeAt: Date.parse('2026-12-28T09:00:00Z') });
    expect(gapWeekAt(Date.parse('2026-11-30T10:00:00Z')).key).toBe('2026-W49');
  });
});
