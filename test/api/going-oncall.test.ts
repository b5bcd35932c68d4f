// Going on call (docs/api.md#escalation-and-notifications) through the real server and the service's clock: the sweeper notices
// when who is on call for a team changes and tells the team's handoff_notifications recipients
// (template event_goc); the first look only records who is on call.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { useService, type TestService } from '../support/runtime';
import { person, waitFor } from '../escalation/support';
import { testClock } from '../support/dependencies';

let service: TestService;
let admin: ApiClient;

useService(async (started) => {
  service = started;
  admin = service.admin;
});

const HOUR = 3_600_000;

async function gocOf(accountUserId: string) {
  const res = await admin.get(`/api/v4/notifications?account_user_id=${accountUserId}&template=event_goc&limit=100`);
  return res.body.data as { channel: string; message: string; subject: string | null }[];
}

async function teamWithShift(setting: string, onCall: string[], members: string[], admins: string[], extra: Record<string, unknown> = {}) {
  const created = await admin.post('/api/v4/teams', {
    name: `Shift ${setting} ${Math.random().toString(36).slice(2, 6)}`,
    member_account_user_ids: members,
    admin_account_user_ids: admins,
    handoff_notifications: setting,
    ...extra,
  });
  expect(created.status, created.text).toBe(201);
  // A shift that starts in two hours and lasts four.
  const start = Date.now() + 2 * HOUR;
  const event = await admin.post('/api/v4/events', {
    schedule_ids: [created.body.schedule_id],
    account_user_ids: onCall,
    layer: 1,
    start_datetime: new Date(start).toISOString(),
    end_datetime: new Date(start + 4 * HOUR).toISOString(),
    time_zone: 'UTC',
  });
  expect(event.status, event.text).toBe(201);
  return created.body as { id: string; name: string };
}

describe('going on call', () => {
  it('oncall_rotation: those coming on hear event_goc once; the first look and people going off tell nobody', async () => {
    const [on, member] = [await person(admin), await person(admin)];
    const team = await teamWithShift('oncall_rotation', [on.id], [on.id, member.id], [member.id]);
    await service.runtime.runScheduled('sweeper'); // first look: nobody on call, nothing told
    await service.runtime.runScheduled('sweeper');
    expect(await gocOf(on.id)).toEqual([]);

    testClock.advance(2 * HOUR + 60_000);
    await service.runtime.runScheduled('sweeper');
    const told = await waitFor(
      () => gocOf(on.id),
      (n) => n.length >= 2,
    );
    expect(told.map((n) => n.channel).sort()).toEqual(['email', 'push']);
    expect(told.find((n) => n.channel === 'email')!.subject).toBe(`You are now on call for ${team.name}`);
    expect(await gocOf(member.id)).toEqual([]);
    await service.runtime.runScheduled('sweeper'); // no change since
    expect(await gocOf(on.id)).toHaveLength(2);

    testClock.advance(4 * HOUR);
    await service.runtime.runScheduled('sweeper'); // the shift ended: nobody comes on
    expect(await gocOf(on.id)).toHaveLength(2);
    expect(await gocOf(member.id)).toEqual([]);
  });

  it('team_all, team_admins, specific_users and none tell their recipients who is on call now', async () => {
    const [on, member, boss, watcher] = [await person(admin), await person(admin), await person(admin), await person(admin)];
    const all = await teamWithShift('team_all', [on.id], [on.id, member.id], [boss.id]);
    await teamWithShift('team_admins', [on.id], [on.id, member.id], [boss.id]);
    await teamWithShift('specific_users', [on.id], [on.id], [on.id], { handoff_notification_account_user_ids: [watcher.id] });
    await teamWithShift('none', [on.id], [on.id, member.id], [member.id]);
    await service.runtime.runScheduled('sweeper');
    testClock.advance(2 * HOUR + 60_000);
    await service.runtime.runScheduled('sweeper');
    // team_all: members and admins; team_admins: the admin again; specific_users: the watcher.
    const memberTold = await waitFor(
      () => gocOf(member.id),
      (n) => n.length >= 2,
    );
    expect(memberTold.find((n) => n.channel === 'email')!.subject).toBe(`Now on call for ${all.name}: ${on.name}`);
    expect(await gocOf(boss.id)).toHaveLength(4);
    expect(await gocOf(watcher.id)).toHaveLength(2);
    // The person coming on hears it from team_all only (they are not an admin nor the watcher), in the first person.
    const onTold = (await gocOf(on.id)).filter((n) => n.channel === 'email');
    expect(onTold.map((n) => n.subject)).toEqual([`You are now on call for ${all.name}`]);
  });
});
