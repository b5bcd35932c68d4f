import { describe, expect, it } from 'vitest';
import { signupAccount, useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { createEvent, createSchedule, createTeam, errorMessages, people, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let bob: Person;

useService(async (started) => {
  service = started;
  admin = service.admin;
  [alice, bob] = await people(admin, 2, 'Scheduler');
});

const eventIn = (scheduleIds: string[], day: number) => ({
  start_datetime: `2026-09-${String(day).padStart(2, '0')}T09:00:00Z`,
  end_datetime: `2026-09-${String(day).padStart(2, '0')}T17:00:00Z`,
  layer: 1,
  time_zone: 'UTC',
  account_user_ids: [alice.id],
  schedule_ids: scheduleIds,
});

describe('schedules: standard operations', () => {
  it('creates (name required), gets, lists, updates and deletes', async () => {
    const missing = await admin.post('/api/v4/schedules', {});
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)).toEqual(["name can't be blank"]);

    const res = await admin.post('/api/v4/schedules', { name: 'Primary rota' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Primary rota', tiny_id: expect.any(Number), prefix_id: `skd_${res.body.id}` });
    const second = await createSchedule(admin, 'Secondary rota');
    expect(second.tiny_id).toBe(res.body.tiny_id + 1);

    expect((await admin.get(`/api/v4/schedules/${res.body.prefix_id}`)).body.name).toBe('Primary rota');
    const list = await admin.get('/api/v4/schedules?q=primary');
    expect(list.body.data.map((s: any) => s.id)).toEqual([res.body.id]);
    const renamed = await admin.put(`/api/v4/schedules/${res.body.id}`, { name: 'Main rota' });
    expect(renamed.body.name).toBe('Main rota');
    expect((await admin.put(`/api/v4/schedules/${res.body.id}`, { name: '' })).status).toBe(422);
    expect((await admin.delete(`/api/v4/schedules/${res.body.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/schedules/${res.body.id}`)).status).toBe(404);
  });

  it('is for admins; a team admin may rename and flush the team schedule only', async () => {
    const [carol] = await people(admin, 1, 'Carol');
    const team = await createTeam(admin, { name: 'Rota team', member_account_user_ids: [alice.id], admin_account_user_ids: [carol.id] });
    const other = await createSchedule(admin, 'Someone else');
    expect((await carol.client.post('/api/v4/schedules', { name: 'Mine' })).status).toBe(403);
    expect((await carol.client.put(`/api/v4/schedules/${team.schedule_id}`, { name: 'Carols rota' })).status).toBe(200);
    expect((await carol.client.put(`/api/v4/schedules/${other.id}`, { name: 'x' })).status).toBe(403);
    expect((await carol.client.delete(`/api/v4/schedule/${team.schedule_id}/flush`)).status).toBe(204);
    expect((await carol.client.delete(`/api/v4/schedule/${other.id}/flush`)).status).toBe(403);
    expect((await carol.client.delete(`/api/v4/schedules/${team.schedule_id}`)).status).toBe(403);
    expect((await alice.client.put(`/api/v4/schedules/${team.schedule_id}`, { name: 'x' })).status).toBe(403);
    expect((await alice.client.get(`/api/v4/schedules/${team.schedule_id}`)).status).toBe(200);
  });

  it("a team admin's right to the schedule follows the team at once: admins removed, schedule re-pointed, team deleted", async () => {
    const [dora, eve] = await people(admin, 2, 'Rights');
    const team = await createTeam(admin, { name: 'Rights team', member_account_user_ids: [alice.id], admin_account_user_ids: [dora.id] });
    const rename = (who: typeof dora, scheduleId: string) => who.client.put(`/api/v4/schedules/${scheduleId}`, { name: `by ${who.id}` });
    expect((await rename(dora, team.schedule_id)).status).toBe(200);
    expect((await rename(eve, team.schedule_id)).status).toBe(403);
    // Admins swapped: the right moves with the very next request.
    expect((await admin.put(`/api/v4/teams/${team.id}`, { admin_account_user_ids: [eve.id] })).status).toBe(200);
    expect((await rename(dora, team.schedule_id)).status).toBe(403);
    expect((await rename(eve, team.schedule_id)).status).toBe(200);
    // The team moves to another schedule: the old one is no longer theirs, the new one is.
    const next = await createSchedule(admin, 'Next rota');
    expect((await admin.put(`/api/v4/teams/${team.id}`, { schedule_id: next.id })).status).toBe(200);
    expect((await rename(eve, team.schedule_id)).status).toBe(403);
    expect((await rename(eve, next.id)).status).toBe(200);
    // A deleted account user, and then a deleted team, leave no right behind.
    expect((await admin.put(`/api/v4/teams/${team.id}`, { admin_account_user_ids: [eve.id, dora.id] })).status).toBe(200);
    expect((await admin.delete(`/api/v4/account_users/${eve.id}`)).status).toBe(204);
    expect((await rename(dora, next.id)).status).toBe(200);
    expect((await admin.delete(`/api/v4/teams/${team.id}`)).status).toBe(204);
    expect((await rename(dora, next.id)).status).toBe(403);
  });

  it('hides schedules of another account', async () => {
    const schedule = await createSchedule(admin);
    const other = await signupAccount(service, 'SkdIso');
    for (const path of [
      `/api/v4/schedules/${schedule.id}`,
      `/api/v4/schedules/${schedule.id}/events`,
      `/api/v4/schedule/${schedule.id}/current_oncall`,
      `/api/v4/schedule/${schedule.id}/window_events?start=2026-01-01 00:00:00&end=2026-01-02 00:00:00`,
    ]) {
      expect((await other.client.get(path)).status).toBe(404);
    }
    expect((await other.client.put(`/api/v4/schedules/${schedule.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.client.delete(`/api/v4/schedule/${schedule.id}/flush`)).status).toBe(404);
    expect((await other.client.delete(`/api/v4/schedules/${schedule.id}`)).status).toBe(404);
  });
});

describe('schedule events', () => {
  it('lists the raw events through the list engine, newest first, with exact totals and ops filters', async () => {
    const schedule = await createSchedule(admin);
    const elsewhere = await createSchedule(admin);
    const created = [];
    for (const day of [1, 2, 3, 4]) created.push(await createEvent(admin, eventIn([schedule.id], day)));
    await createEvent(admin, eventIn([elsewhere.id], 5));

    const page = await admin.get(`/api/v4/schedules/${schedule.id}/events?limit=3`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((e: any) => e.id)).toEqual([created[3].id, created[2].id, created[1].id]);
    expect(page.body).toMatchObject({ has_more: true, total_count: 4 });
    const next = await admin.get(`/api/v4/schedules/${schedule.prefix_id}/events?limit=3&page=2`);
    expect(next.body.data.map((e: any) => e.id)).toEqual([created[0].id]);
    expect(next.body.has_more).toBe(false);

    const ranged = await admin.get(
      `/api/v4/schedules/${schedule.id}/events?ops=start_datetime:gte,end_datetime:lte&start_datetime=2026-09-02T00:00:00Z&end_datetime=2026-09-03T23:59:59Z&sort=start_datetime`,
    );
    expect(ranged.status, ranged.text).toBe(200);
    expect(ranged.body.data.map((e: any) => e.id)).toEqual([created[1].id, created[2].id]);
    expect(ranged.body.total_count).toBe(2);
    // Repeats are not expanded: one entry per event.
    expect(ranged.body.data[0].repeat).toBe(false);
    expect((await admin.get(`/api/v4/schedules/${schedule.id}/events?shoe_size=3`)).status).toBe(422);
  });

  it('counts an event in two schedules in both, and flush only takes it out of the flushed one', async () => {
    const first = await createSchedule(admin);
    const second = await createSchedule(admin);
    const shared = await createEvent(admin, eventIn([first.id, second.id], 10));
    const only = await createEvent(admin, eventIn([first.id], 11));
    expect((await admin.get(`/api/v4/schedules/${first.id}/events`)).body.total_count).toBe(2);
    expect((await admin.get(`/api/v4/schedules/${second.id}/events`)).body.total_count).toBe(1);

    const flushed = await admin.delete(`/api/v4/schedule/${first.id}/flush`);
    expect(flushed.status).toBe(204);
    expect(flushed.text).toBe('');
    const after = await admin.get(`/api/v4/schedules/${first.id}/events`);
    expect(after.body).toMatchObject({ data: [], total_count: 0, has_more: false });
    expect((await admin.get(`/api/v4/events/${only.id}`)).status).toBe(404);
    const kept = await admin.get(`/api/v4/events/${shared.id}`);
    expect(kept.body.schedule_ids).toEqual([second.id]);
    expect((await admin.get(`/api/v4/schedules/${second.id}/events`)).body.total_count).toBe(1);
  });

  it('deleting a schedule removes its own events and keeps shared ones in their other schedules', async () => {
    const doomed = await createSchedule(admin);
    const survivor = await createSchedule(admin);
    const own = await createEvent(admin, eventIn([doomed.id], 12));
    const shared = await createEvent(admin, eventIn([doomed.id, survivor.id], 13));
    expect((await admin.delete(`/api/v4/schedules/${doomed.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/events/${own.id}`)).status).toBe(404);
    expect((await admin.get(`/api/v4/events/${shared.id}`)).body.schedule_ids).toEqual([survivor.id]);
  });
});

describe('window_events validation', () => {
  it.each([
    ['', 'start=2026-01-01 00:00:00', ["end can't be blank"]],
    ['', 'end=2026-01-01 00:00:00', ["start can't be blank"]],
    [
      'bad format',
      'start=01/01/2026&end=2026-01-02 00:00:00',
      ['start must be a UTC time of the form YYYY-MM-DD HH:mm:ss, or an ISO 8601 datetime'],
    ],
    [
      'impossible date',
      'start=2026-02-30 00:00:00&end=2026-03-02 00:00:00',
      ['start must be a UTC time of the form YYYY-MM-DD HH:mm:ss, or an ISO 8601 datetime'],
    ],
    ['end = start', 'start=2026-01-01 00:00:00&end=2026-01-01 00:00:00', ['end must be after start']],
    ['end < start', 'start=2026-01-02 00:00:00&end=2026-01-01 00:00:00', ['end must be after start']],
    [
      'over 366 days',
      'start=2026-01-01 00:00:00&end=2027-01-02 00:00:01',
      ['the window from start to end must not be longer than 366 days'],
    ],
  ])('refuses %s with 422', async (_name, query, messages) => {
    const schedule = await createSchedule(admin);
    const res = await admin.get(`/api/v4/schedule/${schedule.id}/window_events?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(422);
    expect(errorMessages(res)).toEqual(messages);
  });

  it('accepts a window of exactly 366 days and answers a JSON array', async () => {
    const schedule = await createSchedule(admin);
    await createEvent(admin, {
      ...eventIn([schedule.id], 1),
      repeat: true,
      frequency: 1,
      frequency_unit: 'hourly',
      end_datetime: '2026-09-01T09:30:00Z',
      account_user_ids: [alice.id, bob.id],
      rotation: true,
    });
    const res = await admin.get(`/api/v4/schedule/${schedule.id}/window_events?start=2026-09-01 00:00:00&end=2027-09-02 00:00:00`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    // Hourly from 2026-09-01 09:00Z to the window end: 366 days minus 9 hours of hours.
    expect(res.body).toHaveLength(366 * 24 - 9);
    expect(res.body[1]).toEqual({
      event_id: expect.any(String),
      layer: 1,
      start_time: '2026-09-01T10:00:00.000Z',
      end_time: '2026-09-01T10:30:00.000Z',
      attendees: [{ attendee_id: bob.id, attendee_type: 'AccountUser', position: 1, name: 'Scheduler 2', email: bob.email }],
    });
  });
});
