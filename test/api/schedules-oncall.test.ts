// On-call through HTTP: window_events and current_oncall over real events, with expectations worked
// out by hand from the zones' rules (2026: Berlin changes on Mar 29 and Oct 25, Los Angeles on Mar 8
// and Nov 1, Sydney on Apr 5 and Oct 4).
// @moto: a schedule's events read back through their indexes.
import { describe, expect, it } from 'vitest';
import { useService, type TestService } from '../support/runtime';
import type { ApiClient } from '../support/api-client';
import { createEvent, createSchedule, errorMessages, people, windowLines, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let A: Person;
let B: Person;
let C: Person;
let D: Person;
let a: string;
let b: string;
let c: string;
let d: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  [A, B, C, D] = await people(admin, 4, 'Oncall');
  [a, b, c, d] = [A.id, B.id, C.id, D.id];
});

/** A daily 09:00–09:00 rotation in Berlin from Friday 2026-03-27 (the clocks go forward on Sunday). */
async function berlinSpringRotation(scheduleId: string) {
  return createEvent(admin, {
    start_datetime: '2026-03-27T09:00:00',
    end_datetime: '2026-03-28T09:00:00',
    time_zone: 'Berlin',
    layer: 1,
    repeat: true,
    frequency: 1,
    frequency_unit: 'daily',
    rotation: true,
    account_user_ids: [a, b, c],
    schedule_ids: [scheduleId],
  });
}

describe('daylight-saving changes', () => {
  it('Europe/Berlin, spring: a 09:00 hand-off stays 09:00 local, so the Saturday shift lasts 23 hours', async () => {
    const schedule = await createSchedule(admin);
    const event = await berlinSpringRotation(schedule.id);
    expect(event.start_datetime).toBe('2026-03-27T08:00:00.000Z');
    expect(event.time_zone).toBe('Berlin');

    expect(await windowLines(admin, schedule.id, '2026-03-28 00:00:00', '2026-03-30 12:00:00')).toEqual([
      `2026-03-27T08:00:00.000Z–2026-03-28T08:00:00.000Z L1 ${a}`,
      `2026-03-28T08:00:00.000Z–2026-03-29T07:00:00.000Z L1 ${b}`,
      `2026-03-29T07:00:00.000Z–2026-03-30T07:00:00.000Z L1 ${c}`,
      `2026-03-30T07:00:00.000Z–2026-03-31T07:00:00.000Z L1 ${a}`,
    ]);
  });

  it('Europe/Berlin, autumn: the shift over the change lasts 25 hours', async () => {
    const schedule = await createSchedule(admin);
    await createEvent(admin, {
      start_datetime: '2026-10-23 09:00',
      end_datetime: '2026-10-24 09:00',
      time_zone: 'Europe/Berlin',
      layer: 1,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      rotation: true,
      account_user_ids: [a, b],
      schedule_ids: [schedule.id],
    });
    expect(await windowLines(admin, schedule.id, '2026-10-24 12:00:00', '2026-10-25 12:00:00')).toEqual([
      `2026-10-24T07:00:00.000Z–2026-10-25T08:00:00.000Z L1 ${b}`,
      `2026-10-25T08:00:00.000Z–2026-10-26T08:00:00.000Z L1 ${a}`,
    ]);
  });

  it('America/Los_Angeles: a start in the spring-forward gap moves to 03:30 PDT; the end keeps its wall-clock time', async () => {
    const schedule = await createSchedule(admin);
    await createEvent(admin, {
      start_datetime: '2026-03-07T02:30:00',
      end_datetime: '2026-03-07T10:30:00',
      time_zone: 'Pacific Time (US & Canada)',
      layer: 2,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      account_user_ids: [a, b],
      schedule_ids: [schedule.id],
    });
    expect(await windowLines(admin, schedule.id, '2026-03-07 00:00:00', '2026-03-10 00:00:00')).toEqual([
      `2026-03-07T10:30:00.000Z–2026-03-07T18:30:00.000Z L2 ${a}+${b}`,
      `2026-03-08T10:30:00.000Z–2026-03-08T17:30:00.000Z L2 ${a}+${b}`,
      `2026-03-09T09:30:00.000Z–2026-03-09T17:30:00.000Z L2 ${a}+${b}`,
    ]);
  });

  it('America/Los_Angeles: a time that happens twice is the first one', async () => {
    const schedule = await createSchedule(admin);
    await createEvent(admin, {
      start_datetime: '2026-10-31T01:30:00',
      end_datetime: '2026-10-31T02:30:00',
      time_zone: 'America/Los_Angeles',
      layer: 1,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      account_user_ids: [a],
      schedule_ids: [schedule.id],
    });
    expect(await windowLines(admin, schedule.id, '2026-10-31 00:00:00', '2026-11-03 00:00:00')).toEqual([
      `2026-10-31T08:30:00.000Z–2026-10-31T09:30:00.000Z L1 ${a}`,
      `2026-11-01T08:30:00.000Z–2026-11-01T10:30:00.000Z L1 ${a}`,
      `2026-11-02T09:30:00.000Z–2026-11-02T10:30:00.000Z L1 ${a}`,
    ]);
  });

  it('America/Los_Angeles: weekday business hours rotate only over the listed days, across the change', async () => {
    const schedule = await createSchedule(admin);
    await createEvent(admin, {
      start_datetime: '2026-10-30T09:00:00',
      end_datetime: '2026-10-30T17:00:00',
      time_zone: 'America/Los_Angeles',
      layer: 1,
      repeat: true,
      frequency: 1,
      frequency_unit: 'weekly',
      days_of_week: [1, 2, 3, 4, 5],
      rotation: true,
      account_user_ids: [a, b],
      schedule_ids: [schedule.id],
    });
    expect(await windowLines(admin, schedule.id, '2026-10-30 00:00:00', '2026-11-04 00:00:00')).toEqual([
      `2026-10-30T16:00:00.000Z–2026-10-31T00:00:00.000Z L1 ${a}`,
      `2026-11-02T17:00:00.000Z–2026-11-03T01:00:00.000Z L1 ${b}`,
      `2026-11-03T17:00:00.000Z–2026-11-04T01:00:00.000Z L1 ${a}`,
    ]);
  });

  it('Australia/Sydney: a weekly Sunday 09:00 rotation has a 169-hour week in April and a 167-hour week in October', async () => {
    const schedule = await createSchedule(admin);
    await createEvent(admin, {
      start_datetime: '2026-03-29T09:00:00',
      end_datetime: '2026-04-05T09:00:00',
      time_zone: 'Sydney',
      layer: 1,
      repeat: true,
      frequency: 1,
      frequency_unit: 'weekly',
      rotation: true,
      account_user_ids: [a, b],
      schedule_ids: [schedule.id],
    });
    expect(await windowLines(admin, schedule.id, '2026-04-04 00:00:00', '2026-04-06 00:00:00')).toEqual([
      `2026-03-28T22:00:00.000Z–2026-04-04T23:00:00.000Z L1 ${a}`,
      `2026-04-04T23:00:00.000Z–2026-04-11T23:00:00.000Z L1 ${b}`,
    ]);
    // 26 weeks later (occurrence 26: a again) the clocks go forward during the week.
    expect(await windowLines(admin, schedule.id, '2026-10-01 00:00:00', '2026-10-05 00:00:00')).toEqual([
      `2026-09-26T23:00:00.000Z–2026-10-03T22:00:00.000Z L1 ${a}`,
      `2026-10-03T22:00:00.000Z–2026-10-10T22:00:00.000Z L1 ${b}`,
    ]);
  });
});

describe('overrides, exceptions and terminate_on', () => {
  it(
    'an override cuts its parent occurrence; an exception removes one occurrence and the rotation keeps counting; terminate_on ends it',
    { tags: ['moto'] },
    async () => {
      const schedule = await createSchedule(admin);
      const event = await berlinSpringRotation(schedule.id);

      // Sunday 12:00–18:00 Berlin (CEST) goes to D instead of C.
      const override = await admin.post(`/api/v4/events/${event.id}/override`, {
        start_time: '2026-03-29 12:00',
        end_time: '2026-03-29 18:00',
        time_zone: 'Europe/Berlin',
        layer: 1,
        account_user_ids: [d],
        action_time: '2026-03-29T09:00:00',
      });
      expect(override.status, override.text).toBe(201);
      expect(override.body).toMatchObject({
        parent_id: event.id,
        schedule_ids: [schedule.id],
        start_datetime: '2026-03-29T10:00:00.000Z',
        end_datetime: '2026-03-29T16:00:00.000Z',
        layer: 1,
        time_zone: 'Europe/Berlin',
        repeat: false,
        event_attendees: [{ attendee_id: d, attendee_type: 'AccountUser', position: 0 }],
      });
      expect(await windowLines(admin, schedule.id, '2026-03-29 00:00:00', '2026-03-30 00:00:00')).toEqual([
        `2026-03-28T08:00:00.000Z–2026-03-29T07:00:00.000Z L1 ${b}`,
        `2026-03-29T07:00:00.000Z–2026-03-29T10:00:00.000Z L1 ${c}`,
        `2026-03-29T10:00:00.000Z–2026-03-29T16:00:00.000Z L1 ${d}`,
        `2026-03-29T16:00:00.000Z–2026-03-30T07:00:00.000Z L1 ${c}`,
      ]);

      // Monday's occurrence (number 3, a) goes; Tuesday's is still number 4 (b).
      const excepted = await admin.post(`/api/v4/events/${event.id}/add_exception`, { action_time: '2026-03-30T07:00:00.000Z' });
      expect(excepted.status, excepted.text).toBe(200);
      expect(excepted.body.exceptions).toEqual([{ id: expect.any(String), start_datetime: '2026-03-30T07:00:00.000Z' }]);
      expect(await windowLines(admin, schedule.id, '2026-03-30 12:00:00', '2026-03-31 12:00:00')).toEqual([
        `2026-03-31T07:00:00.000Z–2026-04-01T07:00:00.000Z L1 ${b}`,
      ]);
      // The same exception again changes nothing.
      const again = await admin.post(`/api/v4/events/${event.id}/add_exception`, { action_time: '2026-03-30T09:00:00+02:00' });
      expect(again.status).toBe(200);
      expect(again.body.exceptions).toHaveLength(1);

      // From Wednesday on, nothing.
      const terminated = await admin.post(`/api/v4/events/${event.id}/terminate_on`, { action_time: '2026-04-01T09:00:00' });
      expect(terminated.status, terminated.text).toBe(200);
      expect(terminated.body.repeat_end_datetime).toBe('2026-03-31T07:00:00.000Z');
      expect(await windowLines(admin, schedule.id, '2026-03-31 00:00:00', '2026-04-10 00:00:00')).toEqual([
        `2026-03-31T07:00:00.000Z–2026-04-01T07:00:00.000Z L1 ${b}`,
      ]);
      // Earlier occurrences and the override are untouched.
      expect(await windowLines(admin, schedule.id, '2026-03-29 09:00:00', '2026-03-29 11:00:00')).toEqual([
        `2026-03-29T07:00:00.000Z–2026-03-29T10:00:00.000Z L1 ${c}`,
        `2026-03-29T10:00:00.000Z–2026-03-29T16:00:00.000Z L1 ${d}`,
      ]);

      // Terminating on the first occurrence deletes the event and its override.
      const gone = await admin.post(`/api/v4/events/${event.id}/terminate_on`, { action_time: '2026-03-27T08:00:00Z' });
      expect(gone.status).toBe(204);
      expect(gone.text).toBe('');
      expect((await admin.get(`/api/v4/events/${event.id}`)).status).toBe(404);
      expect((await admin.get(`/api/v4/events/${override.body.id}`)).status).toBe(404);
      expect(await windowLines(admin, schedule.id, '2026-03-01 00:00:00', '2026-05-01 00:00:00')).toEqual([]);
    },
  );

  it(
    'an override on another layer adds its entry without cutting the parent; overrides starting after terminate_on go',
    { tags: ['moto'] },
    async () => {
      const schedule = await createSchedule(admin);
      const event = await berlinSpringRotation(schedule.id);
      const layer2 = await admin.post(`/api/v4/events/${event.id}/override`, {
        start_time: '2026-03-28 10:00',
        end_time: '2026-03-28 11:00',
        time_zone: 'UTC',
        layer: 2,
        account_user_ids: [d],
        action_time: '2026-03-28T09:00:00+01:00',
      });
      expect(layer2.status, layer2.text).toBe(201);
      const later = await admin.post(`/api/v4/events/${event.id}/override`, {
        start_time: '2026-04-03 10:00',
        end_time: '2026-04-03 11:00',
        time_zone: 'Berlin',
        layer: 1,
        account_user_ids: [d],
        action_time: '2026-04-03T09:00:00',
      });
      expect(later.status, later.text).toBe(201);
      expect(await windowLines(admin, schedule.id, '2026-03-28 09:00:00', '2026-03-28 10:30:00')).toEqual([
        `2026-03-28T08:00:00.000Z–2026-03-29T07:00:00.000Z L1 ${b}`,
        `2026-03-28T10:00:00.000Z–2026-03-28T11:00:00.000Z L2 ${d}`,
      ]);
      const terminated = await admin.post(`/api/v4/events/${event.id}/terminate_on`, { action_time: '2026-04-02T09:00:00' });
      expect(terminated.status).toBe(200);
      expect((await admin.get(`/api/v4/events/${later.body.id}`)).status).toBe(404);
      expect((await admin.get(`/api/v4/events/${layer2.body.id}`)).status).toBe(200);
    },
  );

  it('action times that start no occurrence are 422', async () => {
    const schedule = await createSchedule(admin);
    const event = await berlinSpringRotation(schedule.id);
    for (const action of ['add_exception', 'terminate_on']) {
      const res = await admin.post(`/api/v4/events/${event.id}/${action}`, { action_time: '2026-03-28T09:00:00Z' });
      expect(res.status).toBe(422);
      expect(errorMessages(res)[0]).toMatch(/^action_time .* is not the start of an occurrence/);
      const before = await admin.post(`/api/v4/events/${event.id}/${action}`, { action_time: '2026-03-26T09:00:00' });
      expect(before.status).toBe(422);
      const blank = await admin.post(`/api/v4/events/${event.id}/${action}`, {});
      expect(errorMessages(blank)).toEqual(["action_time can't be blank"]);
      const garbage = await admin.post(`/api/v4/events/${event.id}/${action}`, { action_time: 'soon' });
      expect(garbage.status).toBe(422);
    }
    const override = await admin.post(`/api/v4/events/${event.id}/override`, {
      start_time: '2026-03-28 10:00',
      end_time: '2026-03-28 11:00',
      time_zone: 'Berlin',
      layer: 1,
      account_user_ids: [d],
      action_time: '2026-03-28T10:00:00',
    });
    expect(override.status).toBe(422);
  });
});

describe('layers and current_oncall', () => {
  it('sorts entries by start then layer, and events on one layer add their attendees', { tags: ['moto'] }, async () => {
    const schedule = await createSchedule(admin);
    const base = {
      start_datetime: '2026-06-01T00:00:00Z',
      end_datetime: '2026-06-02T00:00:00Z',
      time_zone: 'UTC',
      schedule_ids: [schedule.id],
    };
    await createEvent(admin, { ...base, layer: 2, account_user_ids: [c] });
    await createEvent(admin, { ...base, layer: 1, account_user_ids: [a] });
    await createEvent(admin, { ...base, start_datetime: '2026-05-31T12:00:00Z', layer: 3, account_user_ids: [d] });
    const lines = await windowLines(admin, schedule.id, '2026-06-01 06:00:00', '2026-06-01 07:00:00');
    expect(lines).toEqual([
      `2026-05-31T12:00:00.000Z–2026-06-02T00:00:00.000Z L3 ${d}`,
      `2026-06-01T00:00:00.000Z–2026-06-02T00:00:00.000Z L1 ${a}`,
      `2026-06-01T00:00:00.000Z–2026-06-02T00:00:00.000Z L2 ${c}`,
    ]);
  });

  it('current_oncall answers the rotation member of the occurrence that contains now, with its real bounds', async () => {
    const schedule = await createSchedule(admin);
    const hour = 3_600_000;
    const day = 24 * hour;
    // Occurrence 10 of a daily rotation always contains now (it started 12 ± 1 hours ago).
    const start = Math.floor(Date.now() / hour) * hour - 10 * day - 12 * hour;
    const event = await createEvent(admin, {
      start_datetime: new Date(start).toISOString(),
      end_datetime: new Date(start + day).toISOString(),
      time_zone: 'UTC',
      layer: 1,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      rotation: true,
      account_user_ids: [a, b, c],
      schedule_ids: [schedule.id],
    });
    const res = await B.client.get(`/api/v4/schedule/${schedule.id}/current_oncall`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        event_id: event.id,
        layer: 1,
        start_time: new Date(start + 10 * day).toISOString(),
        end_time: new Date(start + 11 * day).toISOString(),
        attendees: [{ attendee_id: b, attendee_type: 'AccountUser', position: 1, name: 'Oncall 2', email: B.email }],
      },
    ]);
  });

  it('window_events takes ISO 8601 bounds with offsets, and names every attendee once read', { tags: ['moto'] }, async () => {
    const schedule = await createSchedule(admin);
    const event = await createEvent(admin, {
      start_datetime: '2026-06-01T09:00:00Z',
      end_datetime: '2026-06-01T17:00:00Z',
      time_zone: 'UTC',
      layer: 1,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      account_user_ids: [a, c],
      schedule_ids: [schedule.id],
    });
    // The + of the offset sent unencoded: the query decodes it as a space.
    const iso = await B.client.get(
      `/api/v4/schedule/${schedule.id}/window_events?start=2026-06-02T11:00:00+02:00&end=2026-06-02T12:00:00.000-05:00`,
    );
    expect(iso.status, iso.text).toBe(200);
    expect(iso.body).toHaveLength(1);
    expect(iso.body[0]).toMatchObject({ event_id: event.id, start_time: '2026-06-02T09:00:00.000Z' });
    expect(iso.body[0].attendees).toEqual([
      { attendee_id: a, attendee_type: 'AccountUser', position: 0, name: 'Oncall 1', email: A.email },
      { attendee_id: c, attendee_type: 'AccountUser', position: 1, name: 'Oncall 3', email: C.email },
    ]);
    const plain = await B.client.get(`/api/v4/schedule/${schedule.id}/window_events?start=2026-06-02%2009:00:00&end=2026-06-02%2010:00:00`);
    expect(plain.body).toEqual(iso.body);
  });
});
