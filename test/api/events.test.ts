import { describe, expect, it } from 'vitest';
import { TIME_ZONE_NAMES } from '../../lib/oncall/time-zones';
import { signupAccount, useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { createEvent, createSchedule, createTeam, errorMessages, people, windowLines, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let alice: Person;
let bob: Person;
let schedule: any;

const valid = () => ({
  start_datetime: '2026-05-04T09:00:00',
  end_datetime: '2026-05-04T17:00:00',
  layer: 1,
  time_zone: 'Berlin',
  account_user_ids: [alice.id],
  schedule_ids: [schedule.id],
});

useService(async (started) => {
  service = started;
  admin = service.admin;
  [alice, bob] = await people(admin, 2, 'Eventer');
  schedule = await createSchedule(admin, 'Events');
});

describe('creating events (v4)', () => {
  it('answers 201 with the documented fields; attendees keep the order given', async () => {
    const res = await admin.post('/api/v4/events', {
      ...valid(),
      account_user_ids: [bob.id, `acu_${alice.id}`],
      schedule_ids: [schedule.prefix_id],
      repeat: true,
      frequency: 2,
      frequency_unit: 'weekly',
      days_of_week: [1, 3],
      repeat_end_datetime: '2026-12-31T23:59:59',
      rotation: true,
      meta: { source: 'test' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      tiny_id: expect.any(Number),
      start_datetime: '2026-05-04T07:00:00.000Z',
      end_datetime: '2026-05-04T15:00:00.000Z',
      layer: 1,
      time_zone: 'Berlin',
      repeat: true,
      frequency: 2,
      frequency_unit: 'weekly',
      days_of_week: [1, 3],
      repeat_end_datetime: '2026-12-31T22:59:59.000Z',
      rotation: true,
      parent_id: null,
      schedule_ids: [schedule.id],
      exceptions: [],
      meta: { source: 'test' },
      event_attendees: [
        { id: expect.any(String), attendee_id: bob.id, attendee_type: 'AccountUser', position: 0 },
        { id: expect.any(String), attendee_id: alice.id, attendee_type: 'AccountUser', position: 1 },
      ],
    });
    expect(res.body.prefix_id).toBe(`evt_${res.body.id}`);
    expect((await admin.get(`/api/v4/events/${res.body.prefix_id}`)).body).toEqual(res.body);
  });

  it('returns time_zone exactly as given, friendly or IANA, and reads offset-less datetimes in it', async () => {
    const friendly = await createEvent(admin, { ...valid(), time_zone: 'Pacific Time (US & Canada)' });
    expect(friendly.time_zone).toBe('Pacific Time (US & Canada)');
    expect(friendly.start_datetime).toBe('2026-05-04T16:00:00.000Z');
    // An explicit offset wins over the zone; the offset-less end is 17:00 in Sydney (AEST, +10).
    const iana = await createEvent(admin, { ...valid(), time_zone: 'Australia/Sydney', start_datetime: '2026-05-04T01:00:00+02:00' });
    expect(iana.time_zone).toBe('Australia/Sydney');
    expect(iana.start_datetime).toBe('2026-05-03T23:00:00.000Z');
    expect(iana.end_datetime).toBe('2026-05-04T07:00:00.000Z');
  });

  it.each([
    ['start_datetime', "start_datetime can't be blank"],
    ['end_datetime', "end_datetime can't be blank"],
    ['layer', "layer can't be blank"],
    ['time_zone', "time_zone can't be blank"],
    ['account_user_ids', "account_user_ids can't be blank"],
  ])('requires %s (422)', async (field, message) => {
    const body: Record<string, unknown> = valid();
    delete body[field];
    const res = await admin.post('/api/v4/events', body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(422);
    expect(errorMessages(res)).toEqual([message]);
  });

  it.each([
    [{ account_user_ids: [] }, 'account_user_ids must have at least 1 entry'],
    [{ repeat: true, frequency_unit: 'daily' }, "frequency can't be blank when repeat is true"],
    [{ repeat: true, frequency: 1 }, "frequency_unit can't be blank when repeat is true"],
    [{ repeat: true, frequency: 0, frequency_unit: 'daily' }, 'frequency must be at least 1'],
    [
      { repeat: true, frequency: 1, frequency_unit: 'fortnightly' },
      'frequency_unit must be one of: hourly, daily, weekly, monthly, yearly',
    ],
    [{ time_zone: 'Mars/Olympus' }, 'time_zone is not a known time zone: Mars/Olympus'],
    [{ start_datetime: 'next monday' }, 'start_datetime must be an ISO 8601 datetime (e.g. 2026-03-29T09:00:00+02:00)'],
    [{ end_datetime: '2026-05-04T09:00:00' }, 'end_datetime must be after start_datetime'],
    [{ layer: 0 }, 'layer must be at least 1'],
    [{ days_of_week: [7] }, 'days_of_week[0] must be at most 6'],
    [
      { repeat: true, frequency: 1, frequency_unit: 'daily', repeat_end_datetime: '2026-05-01T00:00:00' },
      'repeat_end_datetime must not be before start_datetime',
    ],
    [{ account_user_ids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, 'account_user_ids contains an unknown account user: 01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    [{ schedule_ids: ['skd_01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, 'schedule_ids contains an unknown schedule: 01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    [
      { schedule_ids: ['tem_01ARZ3NDEKTSV4RRFFQ69G5FAV'] },
      'schedule_ids contains an id that is not a schedule: tem_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    ],
  ])('refuses %j with 422: %s', async (change, message) => {
    const res = await admin.post('/api/v4/events', { ...valid(), ...change });
    expect(res.status).toBe(422);
    expect(errorMessages(res)).toContain(message);
  });

  it('accepts a form-encoded body', async () => {
    const body = new URLSearchParams({
      start_datetime: '2026-05-04 09:00',
      end_datetime: '2026-05-04 10:00',
      layer: '2',
      time_zone: 'UTC',
      repeat: 'true',
      frequency: '1',
      frequency_unit: 'daily',
    });
    body.append('account_user_ids[]', alice.id);
    body.append('days_of_week[]', '1');
    body.append('days_of_week[]', '2');
    const res = await admin.post('/api/v4/events', body.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      layer: 2,
      repeat: true,
      frequency: 1,
      days_of_week: [1, 2],
      start_datetime: '2026-05-04T09:00:00.000Z',
    });
  });

  it('lists the friendly time zone names', async () => {
    const res = await alice.client.get('/api/v4/events/time_zones');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(TIME_ZONE_NAMES);
    expect(res.body[0]).toBe('International Date Line West');
    expect(res.body).toContain('Berlin');
  });
});

describe('updating, listing and deleting events (v4)', () => {
  it('updates only the fields sent; offset-less times use the new or stored zone', async () => {
    const event = await createEvent(admin, valid());
    const layer = await admin.put(`/api/v4/events/${event.id}`, { layer: 3 });
    expect(layer.status, layer.text).toBe(200);
    expect(layer.body).toMatchObject({ layer: 3, start_datetime: event.start_datetime, time_zone: 'Berlin' });
    const moved = await admin.put(`/api/v4/events/${event.id}`, { start_datetime: '2026-05-04T08:00:00' });
    expect(moved.body.start_datetime).toBe('2026-05-04T06:00:00.000Z');
    const zoned = await admin.put(`/api/v4/events/${event.id}`, { time_zone: 'Tokyo', start_datetime: '2026-05-04T08:00:00' });
    expect(zoned.body).toMatchObject({ time_zone: 'Tokyo', start_datetime: '2026-05-03T23:00:00.000Z' });
    const people2 = await admin.put(`/api/v4/events/${event.id}`, { account_user_ids: [bob.id, alice.id] });
    expect(people2.body.event_attendees.map((x: any) => [x.attendee_id, x.position])).toEqual([
      [bob.id, 0],
      [alice.id, 1],
    ]);
    // alice's attendee entry is the same entry, now second.
    expect(people2.body.event_attendees[1].id).toBe(event.event_attendees[0].id);
    const bad = await admin.put(`/api/v4/events/${event.id}`, { end_datetime: '2026-05-01T00:00:00Z' });
    expect(bad.status).toBe(422);
    expect(errorMessages(bad)).toEqual(['end_datetime must be after start_datetime']);
  });

  it('filters the list by schedule (also by prefix id) and by start_datetime with ops', async () => {
    const own = await createSchedule(admin, 'Listed');
    const first = await createEvent(admin, {
      ...valid(),
      schedule_ids: [own.id],
      start_datetime: '2026-07-01T09:00:00Z',
      end_datetime: '2026-07-01T10:00:00Z',
    });
    const second = await createEvent(admin, {
      ...valid(),
      schedule_ids: [own.id],
      start_datetime: '2026-08-01T09:00:00Z',
      end_datetime: '2026-08-01T10:00:00Z',
    });
    const bySchedule = await admin.get(`/api/v4/events?schedule_ids=${own.prefix_id}`);
    expect(bySchedule.body.data.map((e: any) => e.id)).toEqual([second.id, first.id]);
    expect(bySchedule.body.total_count).toBe(2);
    const after = await admin.get(`/api/v4/events?schedule_ids=${own.id}&start_datetime=2026-07-15T00:00:00Z&ops=start_datetime:gte`);
    expect(after.body.data.map((e: any) => e.id)).toEqual([second.id]);
    expect(after.body.total_count).toBe(1);
  });

  it('deletes with 204, taking its overrides along', async () => {
    const event = await createEvent(admin, valid());
    const child = await admin.post(`/api/v4/events/${event.id}/override`, {
      start_time: '2026-05-04 10:00',
      end_time: '2026-05-04 11:00',
      time_zone: 'Berlin',
      layer: 1,
      account_user_ids: [bob.id],
      action_time: '2026-05-04T09:00:00',
    });
    expect(child.status, child.text).toBe(201);
    expect((await admin.delete(`/api/v4/events/${event.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/events/${event.id}`)).status).toBe(404);
    expect((await admin.get(`/api/v4/events/${child.body.id}`)).status).toBe(404);
  });

  it('follows its parent into other schedules (an override cuts where its parent is)', async () => {
    const first = await createSchedule(admin, 'First');
    const second = await createSchedule(admin, 'Second');
    const event = await createEvent(admin, { ...valid(), schedule_ids: [first.id] });
    const child = await admin.post(`/api/v4/events/${event.id}/override`, {
      start_time: '2026-05-04 10:00',
      end_time: '2026-05-04 11:00',
      time_zone: 'Berlin',
      layer: 1,
      account_user_ids: [bob.id],
      action_time: '2026-05-04T07:00:00Z',
    });
    await admin.put(`/api/v4/events/${event.id}`, { schedule_ids: [second.id] });
    expect((await admin.get(`/api/v4/events/${child.body.id}`)).body.schedule_ids).toEqual([second.id]);
    expect(await windowLines(admin, second.id, '2026-05-04 00:00:00', '2026-05-05 00:00:00')).toEqual([
      `2026-05-04T07:00:00.000Z–2026-05-04T08:00:00.000Z L1 ${alice.id}`,
      `2026-05-04T08:00:00.000Z–2026-05-04T09:00:00.000Z L1 ${bob.id}`,
      `2026-05-04T09:00:00.000Z–2026-05-04T15:00:00.000Z L1 ${alice.id}`,
    ]);
    expect(await windowLines(admin, first.id, '2026-05-04 00:00:00', '2026-05-05 00:00:00')).toEqual([]);
  });
});

describe('override input', () => {
  it.each(['start_time', 'end_time', 'layer', 'time_zone', 'account_user_ids', 'action_time'])('requires %s (422)', async (field) => {
    const event = await createEvent(admin, valid());
    const body: Record<string, unknown> = {
      start_time: '2026-05-04 10:00',
      end_time: '2026-05-04 11:00',
      time_zone: 'Berlin',
      layer: 1,
      account_user_ids: [bob.id],
      action_time: '2026-05-04T09:00:00',
    };
    delete body[field];
    const res = await admin.post(`/api/v4/events/${event.id}/override`, body);
    expect(res.status).toBe(422);
    expect(errorMessages(res)).toEqual([`${field} can't be blank`]);
  });

  it('refuses a bad time zone, a reversed span and an unknown event', async () => {
    const event = await createEvent(admin, valid());
    const base = {
      start_time: '2026-05-04 10:00',
      end_time: '2026-05-04 11:00',
      time_zone: 'Berlin',
      layer: 1,
      account_user_ids: [bob.id],
      action_time: '2026-05-04T09:00:00',
    };
    const zone = await admin.post(`/api/v4/events/${event.id}/override`, { ...base, time_zone: 'Nowhere' });
    expect(errorMessages(zone)).toEqual(['time_zone is not a known time zone: Nowhere']);
    const reversed = await admin.post(`/api/v4/events/${event.id}/override`, { ...base, end_time: '2026-05-04 09:30' });
    expect(errorMessages(reversed)).toEqual(['end_time must be after start_time']);
    expect((await admin.post('/api/v4/events/evt_01ARZ3NDEKTSV4RRFFQ69G5FAV/override', base)).status).toBe(404);
  });
});

describe('earlier interface /event', () => {
  it('creates with usr_ attendees and Unix seconds, and v4 reads the same event', async () => {
    const res = await admin.post('/event', {
      schedule_id: [schedule.prefix_id],
      attendees: [`usr_${bob.userId}`, `usr_${alice.userId}`],
      layer: 2,
      start: 1_780_000_000,
      end: 1_780_003_600,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      timezone: 'Berlin',
      dow: [1, 2, 3],
      repeatend: 1_790_000_000,
      meta: { from: 'earlier' },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id;
    expect(res.body).toMatchObject({
      sid: expect.stringMatching(/^acc_/),
      id: expect.stringMatching(/^evt_/),
      tinyId: expect.any(Number),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      schedule_id: [schedule.prefix_id],
      attendees: [`usr_${bob.userId}`, `usr_${alice.userId}`],
      layer: 2,
      start: 1_780_000_000,
      end: 1_780_003_600,
      repeat: true,
      timezone: 'Berlin',
      dow: [1, 2, 3],
      frequency: 1,
      frequency_unit: 'daily',
      repeatend: 1_790_000_000,
      exceptions: [],
      meta: { from: 'earlier' },
    });
    // The on-call engine serves it like any other event: Thursday 2026-05-28 20:26:40Z, an hour.
    const entries = (await admin.get(`/api/v4/schedule/${schedule.id}/window_events?start=2026-05-28 20:00:00&end=2026-05-28 21:00:00`))
      .body;
    expect(entries.filter((e: any) => e.event_id === id.slice(4))).toEqual([
      {
        event_id: id.slice(4),
        layer: 2,
        start_time: '2026-05-28T20:26:40.000Z',
        end_time: '2026-05-28T21:26:40.000Z',
        attendees: [
          { attendee_id: bob.id, attendee_type: 'AccountUser', position: 0, name: 'Eventer 2', email: bob.email },
          { attendee_id: alice.id, attendee_type: 'AccountUser', position: 1, name: 'Eventer 1', email: alice.email },
        ],
      },
    ]);
    const v4 = await admin.get(`/api/v4/events/${id}`);
    expect(v4.status).toBe(200);
    expect(v4.body).toMatchObject({
      id: id.slice(4),
      start_datetime: new Date(1_780_000_000_000).toISOString(),
      end_datetime: new Date(1_780_003_600_000).toISOString(),
      repeat_end_datetime: new Date(1_790_000_000_000).toISOString(),
      time_zone: 'Berlin',
      schedule_ids: [schedule.id],
      event_attendees: [
        { attendee_id: bob.id, position: 0 },
        { attendee_id: alice.id, position: 1 },
      ],
    });
  });

  it('shows a v4 event with prefix ids, Unix seconds and its exceptions', async () => {
    const event = await createEvent(admin, { ...valid(), repeat: true, frequency: 1, frequency_unit: 'daily' });
    await admin.post(`/api/v4/events/${event.id}/add_exception`, { action_time: '2026-05-05T09:00:00' });
    const res = await admin.get(`/event/evt_${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: `evt_${event.id}`,
      schedule_id: [`skd_${schedule.id}`],
      attendees: [`usr_${alice.userId}`],
      start: Date.parse('2026-05-04T07:00:00Z') / 1000,
      end: Date.parse('2026-05-04T15:00:00Z') / 1000,
      timezone: 'Berlin',
      repeatend: null,
      exceptions: [{ start: Date.parse('2026-05-05T07:00:00Z') / 1000, event_id: `evt_${event.id}` }],
    });
    expect((await admin.get(`/event/${event.id}`)).status).toBe(200);
  });

  it.each(['schedule_id', 'attendees', 'layer', 'start', 'end'])('requires %s (400 naming it)', async (field) => {
    const body: Record<string, unknown> = {
      schedule_id: [schedule.prefix_id],
      attendees: [`usr_${alice.userId}`],
      layer: 1,
      start: 1_780_000_000,
      end: 1_780_003_600,
    };
    delete body[field];
    const res = await admin.post('/event', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBeUndefined();
    expect(errorMessages(res)).toEqual([`${field} can't be blank`]);
  });

  it('refuses unknown attendees and schedules (400) and a reversed span', async () => {
    const base = {
      schedule_id: [schedule.prefix_id],
      attendees: [`usr_${alice.userId}`],
      layer: 1,
      start: 1_780_000_000,
      end: 1_780_003_600,
    };
    const who = await admin.post('/event', { ...base, attendees: ['usr_01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    expect(who.status).toBe(400);
    expect(errorMessages(who).join()).toContain('attendees');
    const where = await admin.post('/event', { ...base, schedule_id: ['skd_01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    expect(where.status).toBe(400);
    expect(errorMessages(where).join()).toContain('schedule_id');
    const reversed = await admin.post('/event', { ...base, end: 1_779_999_999 });
    expect(errorMessages(reversed)).toEqual(['end must be after start']);
  });

  it('updates, lists and deletes through the earlier interface', async () => {
    const created = (
      await admin.post('/event', {
        schedule_id: [schedule.prefix_id],
        attendees: [`usr_${alice.userId}`],
        layer: 1,
        start: 1_780_000_000,
        end: 1_780_003_600,
      })
    ).body;
    const updated = await admin.put(`/event/${created.id}`, { attendees: [`usr_${bob.userId}`], end: 1_780_007_200, layer: 4 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ attendees: [`usr_${bob.userId}`], end: 1_780_007_200, layer: 4, start: 1_780_000_000 });
    const list = await admin.get(`/event?layer=4&sort=-start`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: any) => e.id)).toContain(created.id);
    expect(list.body.data.every((e: any) => e.layer === 4)).toBe(true);
    for (const value of [schedule.prefix_id, schedule.id]) {
      const bySchedule = await admin.get(`/event?schedule_id=${value}&limit=100`);
      expect(bySchedule.status).toBe(200);
      expect(bySchedule.body.data.map((e: any) => e.id)).toContain(created.id);
    }
    const byAttendee = await admin.get(`/event?attendees=${bob.userId}&layer=4`);
    expect(byAttendee.body.data.map((e: any) => e.id)).toEqual([created.id]);
    const selected = await admin.get(`/event?select=layer&limit=1`);
    expect(Object.keys(selected.body.data[0]).sort()).toEqual(['id', 'layer']);
    expect((await admin.delete(`/event/${created.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/events/${created.id.slice(4)}`)).status).toBe(404);
  });
});

describe('roles and isolation', () => {
  it('refuses event changes to a non-admin outside the team, and lets the team admin edit the team schedule events', async () => {
    const [carol] = await people(admin, 1, 'Carol');
    const team = await createTeam(admin, { name: 'Events team', member_account_user_ids: [alice.id], admin_account_user_ids: [carol.id] });
    const own = { ...valid(), schedule_ids: [team.schedule_id] };

    expect((await alice.client.post('/api/v4/events', own)).status).toBe(403);
    expect((await alice.client.post('/api/v4/events', {})).status).toBe(403);
    expect((await carol.client.post('/api/v4/events', { ...valid() })).status).toBe(403);
    expect((await carol.client.post('/api/v4/events', { ...own, schedule_ids: [] })).status).toBe(403);

    const created = await carol.client.post('/api/v4/events', { ...own, repeat: true, frequency: 1, frequency_unit: 'daily' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect((await carol.client.put(`/api/v4/events/${id}`, { layer: 2 })).status).toBe(200);
    expect((await carol.client.put(`/api/v4/events/${id}`, { schedule_ids: [team.schedule_id, schedule.id] })).status).toBe(403);
    expect((await carol.client.post(`/api/v4/events/${id}/add_exception`, { action_time: '2026-05-05T09:00:00' })).status).toBe(200);
    const override = await carol.client.post(`/api/v4/events/${id}/override`, {
      start_time: '2026-05-06 10:00',
      end_time: '2026-05-06 11:00',
      time_zone: 'Berlin',
      layer: 2,
      account_user_ids: [carol.id],
      action_time: '2026-05-06T09:00:00',
    });
    expect(override.status, override.text).toBe(201);
    expect((await carol.client.put(`/event/evt_${id}`, { layer: 3 })).status).toBe(200);
    expect((await alice.client.put(`/api/v4/events/${id}`, { layer: 2 })).status).toBe(403);
    expect((await alice.client.delete(`/api/v4/events/${id}`)).status).toBe(403);
    expect((await alice.client.post(`/api/v4/events/${id}/terminate_on`, { action_time: '2026-05-04T09:00:00' })).status).toBe(403);
    expect(
      (
        await alice.client.post('/event', {
          schedule_id: [team.schedule_id],
          attendees: [`usr_${alice.userId}`],
          layer: 1,
          start: 1,
          end: 2,
        })
      ).status,
    ).toBe(403);

    // An event shared with a schedule the team admin does not run is not theirs to change.
    const shared = await createEvent(admin, { ...valid(), schedule_ids: [team.schedule_id, schedule.id] });
    expect((await carol.client.put(`/api/v4/events/${shared.id}`, { layer: 2 })).status).toBe(403);

    expect((await carol.client.post(`/api/v4/events/${id}/terminate_on`, { action_time: '2026-05-04T09:00:00' })).status).toBe(204);
    expect((await alice.client.get(`/api/v4/events/${shared.id}`)).status).toBe(200);
  });

  it('hides events of another account and refuses its schedules and account users as references', async () => {
    const event = await createEvent(admin, valid());
    const other = await signupAccount(service, 'EvtIso');
    expect((await other.client.get(`/api/v4/events/${event.id}`)).status).toBe(404);
    expect((await other.client.get(`/event/evt_${event.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/v4/events/${event.id}`, { layer: 2 })).status).toBe(404);
    expect((await other.client.delete(`/api/v4/events/${event.id}`)).status).toBe(404);
    expect((await other.client.post(`/api/v4/events/${event.id}/add_exception`, { action_time: '2026-05-04T09:00:00' })).status).toBe(404);
    expect((await other.client.get('/api/v4/events')).body.total_count).toBe(0);
    const me = (await other.client.get('/api/v4/account_users')).body.data[0];
    const res = await other.client.post('/api/v4/events', { ...valid(), account_user_ids: [me.id] });
    expect(res.status).toBe(422);
    expect(errorMessages(res).join()).toContain('schedule_ids');
    const who = await other.client.post('/api/v4/events', { ...valid(), schedule_ids: [], account_user_ids: [alice.id] });
    expect(errorMessages(who).join()).toContain('account_user_ids');
  });
});

describe('attendees who leave the account', () => {
  it('are taken off events when their account user is deleted; an event left with no attendee goes', async () => {
    const [temp] = await people(admin, 1, 'Leaving');
    const shared = await createEvent(admin, { ...valid(), account_user_ids: [temp.id, alice.id], rotation: true });
    const alone = await createEvent(admin, { ...valid(), account_user_ids: [temp.id] });
    expect((await admin.delete(`/api/v4/account_users/${temp.id}`)).status).toBe(204);
    const after = (await admin.get(`/api/v4/events/${shared.id}`)).body;
    expect(after.event_attendees.map((a: any) => [a.attendee_id, a.position])).toEqual([[alice.id, 0]]);
    expect((await admin.get(`/api/v4/events/${alone.id}`)).status).toBe(404);
  });
});
