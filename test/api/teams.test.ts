import { describe, expect, it } from 'vitest';
import { useService, signupAccount, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { createTeam, errorMessages, people, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let bob: Person;
let carol: Person;

useService(async (started) => {
  service = started;
  admin = service.admin;
  [alice, bob, carol] = await people(admin, 3, 'Team tester');
});

describe('creating a team', () => {
  it('answers 201 with the documented fields, and creates its schedule and escalation policy', async () => {
    const res = await admin.post('/api/v4/teams', {
      name: 'Platform',
      member_account_user_ids: [alice.id, `acu_${bob.id}`],
      admin_account_user_ids: [carol.id],
      notes: 'Pager duty for the platform',
      attachments: { runbook: { filename: 'runbook.pdf', url: 'https://example.com/runbook.pdf' } },
      meta: { cost_center: 42, gone: null },
      id: 'ignored',
    });
    expect(res.status, res.text).toBe(201);
    const team = res.body;
    expect(team).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      name: 'Platform',
      member_account_user_ids: [alice.id, bob.id],
      admin_account_user_ids: [carol.id],
      drop_notifications: 'team_admins',
      handoff_notifications: 'none',
      drop_notification_account_user_ids: [],
      handoff_notification_account_user_ids: [],
      notes: 'Pager duty for the platform',
      attachments: { runbook: { filename: 'runbook.pdf', url: 'https://example.com/runbook.pdf' } },
      meta: { cost_center: 42 },
      tiny_id: expect.any(Number),
    });
    expect(team.prefix_id).toBe(`tem_${team.id}`);
    expect(team.schedule_id).toMatch(/^[0-9A-Z]{26}$/);
    expect(team.escalation_policy_id).toMatch(/^[0-9A-Z]{26}$/);

    const schedule = await admin.get(`/api/v4/schedules/${team.schedule_id}`);
    expect(schedule.status).toBe(200);
    expect(schedule.body.name).toBe('Platform Schedule');
    const policy = await admin.get(`/api/v4/escalation_policies/${team.escalation_policy_id}`);
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({
      name: 'Platform Escalation Policy',
      repeat: 0,
      escalation_layers: [{ layer: 1, timeout: 5, timeout_unit: 'minutes' }],
    });
  });

  it('numbers teams per account with tiny ids', async () => {
    const first = await createTeam(admin, { name: 'T1', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    const second = await createTeam(admin, { name: 'T2', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    expect(second.tiny_id).toBe(first.tiny_id + 1);
    const other = await signupAccount(service, 'Tiny');
    const me = (await other.client.get('/api/v4/account_users')).body.data[0];
    const elsewhere = await createTeam(other.client, { name: 'X', member_account_user_ids: [me.id], admin_account_user_ids: [me.id] });
    expect(elsewhere.tiny_id).toBe(1);
  });

  it('accepts an admin who is not a member', async () => {
    const team = await createTeam(admin, { name: 'Split', member_account_user_ids: [alice.id], admin_account_user_ids: [bob.id] });
    expect(team.member_account_user_ids).toEqual([alice.id]);
    expect(team.admin_account_user_ids).toEqual([bob.id]);
  });

  it.each([
    [{ member_account_user_ids: ['x'], admin_account_user_ids: ['x'] }, "name can't be blank"],
    [{ name: '  ', member_account_user_ids: ['x'], admin_account_user_ids: ['x'] }, "name can't be blank"],
    [{ name: 'A', admin_account_user_ids: ['x'] }, "member_account_user_ids can't be blank"],
    [{ name: 'A', member_account_user_ids: [], admin_account_user_ids: ['x'] }, 'member_account_user_ids must have at least 1 entry'],
    [{ name: 'A', member_account_user_ids: ['x'] }, "admin_account_user_ids can't be blank"],
    [{ name: 'A', member_account_user_ids: ['x'], admin_account_user_ids: [] }, 'admin_account_user_ids must have at least 1 entry'],
  ])('refuses %j with 422: %s', async (body, message) => {
    const res = await admin.post('/api/v4/teams', body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(422);
    expect(errorMessages(res)).toContain(message);
  });

  it.each(['drop_notifications', 'handoff_notifications'])('refuses an unknown %s value', async (field) => {
    const res = await admin.post('/api/v4/teams', {
      name: 'A',
      member_account_user_ids: [alice.id],
      admin_account_user_ids: [alice.id],
      [field]: 'everyone',
    });
    expect(res.status).toBe(422);
    expect(errorMessages(res)).toEqual([`${field} must be one of: none, team_all, team_admins, oncall_rotation, specific_users`]);
  });

  it('needs recipients when notifications go to specific users', async () => {
    const base = { name: 'A', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] };
    const missing = await admin.post('/api/v4/teams', { ...base, drop_notifications: 'specific_users' });
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)[0]).toMatch(/^drop_notification_account_user_ids must have at least 1 entry/);
    const ok = await admin.post('/api/v4/teams', {
      ...base,
      drop_notifications: 'specific_users',
      drop_notification_account_user_ids: [bob.id],
      handoff_notifications: 'specific_users',
      handoff_notification_account_user_ids: [`acu_${carol.id}`],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.drop_notification_account_user_ids).toEqual([bob.id]);
    expect(ok.body.handoff_notification_account_user_ids).toEqual([carol.id]);
  });

  it('refuses account users that do not exist in the account, naming the field', async () => {
    const other = await signupAccount(service, 'Refs');
    const stranger = (await other.client.get('/api/v4/account_users')).body.data[0];
    for (const field of [
      'member_account_user_ids',
      'admin_account_user_ids',
      'drop_notification_account_user_ids',
      'handoff_notification_account_user_ids',
    ]) {
      const res = await admin.post('/api/v4/teams', {
        name: 'A',
        member_account_user_ids: [alice.id],
        admin_account_user_ids: [alice.id],
        [field]: [stranger.id],
      });
      expect(res.status).toBe(422);
      expect(errorMessages(res).join()).toContain(field);
    }
  });

  it('refuses attachments without a filename or an http url', async () => {
    const res = await admin.post('/api/v4/teams', {
      name: 'A',
      member_account_user_ids: [alice.id],
      admin_account_user_ids: [alice.id],
      attachments: { doc: { filename: 'x', url: 'javascript:alert(1)' } },
    });
    expect(res.status).toBe(422);
    expect(errorMessages(res).join()).toContain('attachments');
  });

  it('accepts a form-encoded body with bracket lists', async () => {
    const body = new URLSearchParams();
    body.append('name', 'Formed');
    body.append('member_account_user_ids[]', alice.id);
    body.append('member_account_user_ids[]', bob.id);
    body.append('admin_account_user_ids[]', carol.id);
    const res = await admin.post('/api/v4/teams', body.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.member_account_user_ids).toEqual([alice.id, bob.id]);
  });
});

describe('reading, listing, updating and deleting teams', () => {
  it('gets a team by ULID or prefix id; anything else is 404', async () => {
    const team = await createTeam(admin, { name: 'Get me', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    expect((await admin.get(`/api/v4/teams/${team.id}`)).body.name).toBe('Get me');
    expect((await admin.get(`/api/v4/teams/${team.prefix_id}`)).body.id).toBe(team.id);
    expect((await admin.get(`/api/v4/teams/skd_${team.id}`)).status).toBe(404);
    expect((await admin.get('/api/v4/teams/nope')).status).toBe(404);
  });

  it('lists with the list engine, filtering on members by ULID or prefix id', async () => {
    const [dave] = await people(admin, 1, 'Dave');
    const team = await createTeam(admin, { name: 'Dave team', member_account_user_ids: [dave.id], admin_account_user_ids: [alice.id] });
    for (const value of [dave.id, `acu_${dave.id}`]) {
      const res = await admin.get(`/api/v4/teams?member_account_user_ids=${value}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((t: any) => t.id)).toEqual([team.id]);
      expect(res.body.total_count).toBe(1);
    }
    const page = await admin.get('/api/v4/teams?limit=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.has_more).toBe(true);
    expect((await admin.get('/api/v4/teams?colour=red')).status).toBe(422);
  });

  it('updates only the fields sent; meta merges and null unsets', async () => {
    const team = await createTeam(admin, {
      name: 'Partial',
      member_account_user_ids: [alice.id],
      admin_account_user_ids: [alice.id],
      meta: { a: 1, b: 2 },
      notes: 'keep',
    });
    const res = await admin.put(`/api/v4/teams/${team.id}`, {
      name: 'Renamed',
      meta: { b: null, c: 3 },
      handoff_notifications: 'team_all',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', notes: 'keep', meta: { a: 1, c: 3 }, handoff_notifications: 'team_all' });
    expect(res.body.member_account_user_ids).toEqual([alice.id]);
    expect(res.body.schedule_id).toBe(team.schedule_id);
  });

  it('keeps at least one member and one admin on update', async () => {
    const team = await createTeam(admin, { name: 'Keep', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    const res = await admin.put(`/api/v4/teams/${team.id}`, { member_account_user_ids: [] });
    expect(res.status).toBe(422);
    expect(errorMessages(res)).toEqual(['member_account_user_ids must have at least 1 entry']);
    const admins = await admin.put(`/api/v4/teams/${team.id}`, { admin_account_user_ids: [] });
    expect(admins.status).toBe(422);
  });

  it('deletes with 204; the schedule and policy stay, and deleting those clears the team pointers', async () => {
    const team = await createTeam(admin, { name: 'Gone', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    expect((await admin.delete(`/api/v4/teams/${team.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/teams/${team.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/v4/teams/${team.id}`)).status).toBe(404);
    expect((await admin.get(`/api/v4/schedules/${team.schedule_id}`)).status).toBe(200);

    const kept = await createTeam(admin, { name: 'Pointers', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    expect((await admin.delete(`/api/v4/schedules/${kept.schedule_id}`)).status).toBe(204);
    expect((await admin.delete(`/api/v4/escalation_policies/${kept.escalation_policy_id}`)).status).toBe(204);
    const after = (await admin.get(`/api/v4/teams/${kept.id}`)).body;
    expect(after.schedule_id).toBeNull();
    expect(after.escalation_policy_id).toBeNull();
    expect((await admin.get(`/api/v4/teams/${kept.id}/current_oncall`)).body).toEqual([]);
  });

  it('lets an admin point the team at another schedule and policy, checking that they exist', async () => {
    const team = await createTeam(admin, { name: 'Repoint', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    const schedule = (await admin.post('/api/v4/schedules', { name: 'Other rota' })).body;
    const res = await admin.put(`/api/v4/teams/${team.id}`, { schedule_id: schedule.prefix_id });
    expect(res.status).toBe(200);
    expect(res.body.schedule_id).toBe(schedule.id);
    const bad = await admin.put(`/api/v4/teams/${team.id}`, { escalation_policy_id: `esc_${schedule.id}` });
    expect(bad.status).toBe(422);
    expect(errorMessages(bad).join()).toContain('escalation_policy_id');
  });
});

describe('roles', () => {
  it('refuses create, update and delete to a non-admin who is not a team admin', async () => {
    const team = await createTeam(admin, { name: 'Locked', member_account_user_ids: [alice.id], admin_account_user_ids: [carol.id] });
    expect(
      (await alice.client.post('/api/v4/teams', { name: 'Mine', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] }))
        .status,
    ).toBe(403);
    expect((await alice.client.post('/api/v4/teams', {})).status).toBe(403);
    expect((await alice.client.put(`/api/v4/teams/${team.id}`, { name: 'Hacked' })).status).toBe(403);
    expect((await alice.client.delete(`/api/v4/teams/${team.id}`)).status).toBe(403);
    const read = await alice.client.get(`/api/v4/teams/${team.id}`);
    expect(read.status).toBe(200);
  });

  it('lets a team admin edit the team, but not re-point it, and not delete it', async () => {
    const team = await createTeam(admin, { name: 'Admin-run', member_account_user_ids: [alice.id], admin_account_user_ids: [carol.id] });
    const res = await carol.client.put(`/api/v4/teams/${team.id}`, { name: 'Run by Carol', member_account_user_ids: [alice.id, bob.id] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.member_account_user_ids).toEqual([alice.id, bob.id]);
    const other = (await admin.post('/api/v4/schedules', { name: 'Not Carols' })).body;
    expect((await carol.client.put(`/api/v4/teams/${team.id}`, { schedule_id: other.id })).status).toBe(403);
    expect((await carol.client.put(`/api/v4/teams/${team.id}`, { schedule_id: team.schedule_id })).status).toBe(200);
    expect((await carol.client.delete(`/api/v4/teams/${team.id}`)).status).toBe(403);
  });

  it('keeps team index keys through membership edits made from the account-user side', async () => {
    const team = await createTeam(admin, { name: 'Joined', member_account_user_ids: [alice.id], admin_account_user_ids: [carol.id] });
    const joined = await admin.post('/api/v4/account_users', {
      user_attributes: { name: 'Newcomer', emails_attributes: [{ email: `new-${Date.now()}@example.com` }] },
      member_team_ids: [team.id],
    });
    expect(joined.status, joined.text).toBe(201);
    const after = (await admin.get(`/api/v4/teams/${team.id}`)).body;
    expect(after.member_account_user_ids).toEqual([alice.id, joined.body.id]);
    // The team-admin check finds the team through its schedule index: still there after that write.
    const renamed = await carol.client.put(`/api/v4/schedules/${team.schedule_id}`, { name: 'Still Carols' });
    expect(renamed.status, renamed.text).toBe(200);
  });
});

describe('isolation', () => {
  it('hides teams of another account (404) and refuses their account users as references', async () => {
    const team = await createTeam(admin, { name: 'Ours', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    const other = await signupAccount(service, 'Iso');
    expect((await other.client.get(`/api/v4/teams/${team.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/v4/teams/${team.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.client.delete(`/api/v4/teams/${team.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/v4/teams/${team.id}/current_oncall`)).status).toBe(404);
    expect((await other.client.get('/api/v4/teams')).body.data.map((t: any) => t.id)).not.toContain(team.id);
    const me = (await other.client.get('/api/v4/account_users')).body.data[0];
    const res = await other.client.post('/api/v4/teams', {
      name: 'Theirs',
      member_account_user_ids: [me.id, alice.id],
      admin_account_user_ids: [me.id],
    });
    expect(res.status).toBe(422);
    expect(errorMessages(res).join()).toContain('member_account_user_ids');
  });
});

describe('team current_oncall', () => {
  it('is the current on-call of the team schedule', async () => {
    const team = await createTeam(admin, { name: 'Now', member_account_user_ids: [alice.id], admin_account_user_ids: [alice.id] });
    const now = Date.now();
    const event = await admin.post('/api/v4/events', {
      start_datetime: new Date(now - 3_600_000).toISOString(),
      end_datetime: new Date(now + 3_600_000).toISOString(),
      layer: 1,
      time_zone: 'UTC',
      account_user_ids: [alice.id, bob.id],
      schedule_ids: [team.schedule_id],
    });
    expect(event.status, event.text).toBe(201);
    const viaTeam = await alice.client.get(`/api/v4/teams/${team.id}/current_oncall`);
    expect(viaTeam.status).toBe(200);
    expect(viaTeam.body).toEqual([
      {
        event_id: event.body.id,
        layer: 1,
        start_time: event.body.start_datetime,
        end_time: event.body.end_datetime,
        attendees: [
          { attendee_id: alice.id, attendee_type: 'AccountUser', position: 0, name: 'Team tester 1', email: alice.email },
          { attendee_id: bob.id, attendee_type: 'AccountUser', position: 1, name: 'Team tester 2', email: bob.email },
        ],
      },
    ]);
    expect((await admin.get(`/api/v4/schedule/${team.schedule_id}/current_oncall`)).body).toEqual(viaTeam.body);
  });
});
