// Coverage through HTTP (contract §14), against a schedule worked out by hand: Berlin's spring change
// (2026-03-29) inside the window, an override, two people at once, a layer nobody is on in the window,
// gaps at the window's edge; then the window's validation and another account's schedule.
// @moto: a schedule's events read back through their links.
// @module-tag moto
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { createEvent, createSchedule, errorMessages, people, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let A: Person;
let B: Person;
let C: Person;
let D: Person;

useService(async (started) => {
  service = started;
  admin = service.admin;
  [A, B, C, D] = await people(admin, 4, 'Cover');
});

const HOUR = 3600;

async function coverage(client: ApiClient, scheduleId: string, query: string) {
  return client.get(`/api/v4/schedules/${scheduleId}/coverage?${query}`);
}

describe('coverage of a schedule', () => {
  it('gives gaps per layer and each person’s time, as worked out by hand', async () => {
    const schedule = await createSchedule(admin, 'Covered');
    // Layer 1: 09:00–09:00 Berlin, A and B in turn, from Friday 03-27 (08:00Z); Saturday's shift is 23 h.
    const rotation = await createEvent(admin, {
      start_datetime: '2026-03-27T09:00:00',
      end_datetime: '2026-03-28T09:00:00',
      time_zone: 'Europe/Berlin',
      layer: 1,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      rotation: true,
      account_user_ids: [A.id, B.id],
      schedule_ids: [schedule.id],
    });
    // Sunday 12:00–18:00 Berlin (10:00Z–16:00Z) goes to C instead of A.
    const override = await admin.post(`/api/v4/events/${rotation.id}/override`, {
      start_time: '2026-03-29 12:00',
      end_time: '2026-03-29 18:00',
      time_zone: 'Europe/Berlin',
      layer: 1,
      account_user_ids: [C.id],
      action_time: '2026-03-29T09:00:00',
    });
    expect(override.status, override.text).toBe(201);
    // Layer 2: A and C together 03-28 00:00–12:00Z, D 10:00–14:00Z.
    await createEvent(admin, {
      start_datetime: '2026-03-28T00:00:00Z',
      end_datetime: '2026-03-28T12:00:00Z',
      time_zone: 'UTC',
      layer: 2,
      account_user_ids: [A.id, C.id],
      schedule_ids: [schedule.id],
    });
    await createEvent(admin, {
      start_datetime: '2026-03-28T10:00:00Z',
      end_datetime: '2026-03-28T14:00:00Z',
      time_zone: 'UTC',
      layer: 2,
      account_user_ids: [D.id],
      schedule_ids: [schedule.id],
    });
    // Layer 3: one hour long before the window; nobody is on it in the window.
    await createEvent(admin, {
      start_datetime: '2026-03-01T00:00:00Z',
      end_datetime: '2026-03-01T01:00:00Z',
      time_zone: 'UTC',
      layer: 3,
      account_user_ids: [B.id],
      schedule_ids: [schedule.id],
    });

    const res = await coverage(admin, schedule.id, 'start=2026-03-27T00:00:00Z&end=2026-03-31T00:00:00Z');
    expect(res.status, res.text).toBe(200);
    const [first, second] = [A.id, C.id].sort();
    expect(res.body).toEqual({
      start: '2026-03-27T00:00:00.000Z',
      end: '2026-03-31T00:00:00.000Z',
      layers: [
        // Nobody before the rotation's first shift; then covered to the window's end.
        { layer: 1, gaps: [{ start: '2026-03-27T00:00:00.000Z', end: '2026-03-27T08:00:00.000Z' }], covered_seconds: 88 * HOUR },
        {
          layer: 2,
          gaps: [
            { start: '2026-03-27T00:00:00.000Z', end: '2026-03-28T00:00:00.000Z' },
            { start: '2026-03-28T14:00:00.000Z', end: '2026-03-31T00:00:00.000Z' },
          ],
          covered_seconds: 14 * HOUR,
        },
        { layer: 3, gaps: [{ start: '2026-03-27T00:00:00.000Z', end: '2026-03-31T00:00:00.000Z' }], covered_seconds: 0 },
      ],
      people: [
        // A: Friday's 24 h, and Sunday's shift (24 h) less C's 6 h, in two pieces.
        { account_user_id: A.id, layer: 1, seconds: 42 * HOUR, spans: 3 },
        // B: Saturday's 23 h (the spring change) and Monday's shift up to the window's end (17 h).
        { account_user_id: B.id, layer: 1, seconds: 40 * HOUR, spans: 2 },
        { account_user_id: C.id, layer: 1, seconds: 6 * HOUR, spans: 1 },
        // Two people at once each count in full.
        { account_user_id: first, layer: 2, seconds: 12 * HOUR, spans: 1 },
        { account_user_id: second, layer: 2, seconds: 12 * HOUR, spans: 1 },
        { account_user_id: D.id, layer: 2, seconds: 4 * HOUR, spans: 1 },
      ],
    });
    // A member reads it too.
    expect((await coverage(B.client, schedule.id, 'start=2026-03-27T00:00:00Z&end=2026-03-31T00:00:00Z')).status).toBe(200);
  });

  it('lists layer 1 for a schedule without events: the whole window is one gap', async () => {
    const schedule = await createSchedule(admin, 'Empty');
    const res = await coverage(admin, schedule.id, 'start=2026-06-01T00:00:00%2B02:00&end=2026-06-02');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      start: '2026-05-31T22:00:00.000Z',
      end: '2026-06-02T00:00:00.000Z',
      layers: [{ layer: 1, gaps: [{ start: '2026-05-31T22:00:00.000Z', end: '2026-06-02T00:00:00.000Z' }], covered_seconds: 0 }],
      people: [],
    });
  });

  it('refuses a bad window with a 422 naming the field, and changes nothing', async () => {
    const schedule = await createSchedule(admin, 'Validated');
    const cases: [string, string[]][] = [
      ['', ["start can't be blank", "end can't be blank"]],
      ['start=2026-06-01T00:00:00Z', ["end can't be blank"]],
      ['start=yesterday&end=2026-06-01T00:00:00Z', ['start must be a UTC time of the form YYYY-MM-DD HH:mm:ss, or an ISO 8601 datetime']],
      [
        'start=2026-06-01T00:00:00Z&end=2026-13-01T00:00:00Z',
        ['end must be a UTC time of the form YYYY-MM-DD HH:mm:ss, or an ISO 8601 datetime'],
      ],
      ['start=2026-06-02T00:00:00Z&end=2026-06-01T00:00:00Z', ['end must be after start']],
      ['start=2026-06-01T00:00:00Z&end=2026-06-01T00:00:00Z', ['end must be after start']],
      ['start=2026-06-01T00:00:00Z&end=2026-08-30T00:00:01Z', ['the window from start to end must not be longer than 90 days']],
    ];
    for (const [query, messages] of cases) {
      const res = await coverage(admin, schedule.id, query);
      expect(res.status, `${query} ${res.text}`).toBe(422);
      expect(errorMessages(res), query).toEqual(messages);
      expect(res.body.code).toBe(422);
    }
    // Exactly 90 days is allowed.
    expect((await coverage(admin, schedule.id, 'start=2026-06-01T00:00:00Z&end=2026-08-30T00:00:00Z')).status).toBe(200);
  });

  it("is a 404 for another account's schedule and for ids that name none", async () => {
    const schedule = await createSchedule(admin, 'Mine');
    const other = await signupAccount(service, 'Coverless');
    const window = 'start=2026-06-01T00:00:00Z&end=2026-06-02T00:00:00Z';
    expect((await coverage(other.client, schedule.id, window)).status).toBe(404);
    for (const id of ['nope', `tem_${schedule.id}`, '%00', 'x'.repeat(500)]) {
      const res = await coverage(admin, id, window);
      expect(res.status, `${id} ${res.text}`).toBe(404);
    }
    expect((await service.anonymous.get(`/api/v4/schedules/${schedule.id}/coverage?${window}`)).status).toBe(401);
  });
});

describe('fairness of a schedule', () => {
  it("splits each person's time into nights and weekends on their own clock", async () => {
    const schedule = await createSchedule(admin, 'Fair');
    const [E, F] = await people(admin, 2, 'Fair');
    const zone = await admin.put(`/api/v4/account_users/${E.id}`, { user_attributes: { time_zone: 'America/New_York' } });
    expect(zone.status, zone.text).toBe(200);
    const defaultZone = (await admin.get(`/api/v4/account_users/${F.id}`)).body.user.time_zone as string;
    // Layer 1: Friday 2026-03-06 18:00Z to Monday 06:00Z, both of them (two people at once each count in full).
    await createEvent(admin, {
      start_datetime: '2026-03-06T18:00:00Z',
      end_datetime: '2026-03-09T06:00:00Z',
      time_zone: 'UTC',
      layer: 1,
      account_user_ids: [E.id, F.id],
      schedule_ids: [schedule.id],
    });
    const res = await admin.get(`/api/v4/schedules/${schedule.id}/fairness?start=2026-03-06T00:00:00Z&end=2026-03-10T00:00:00Z`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.start).toBe('2026-03-06T00:00:00.000Z');
    const byPerson = new Map((res.body.people as { account_user_id: string }[]).map((p) => [p.account_user_id, p]));
    // New York: Friday 13:00 EST to Monday 02:00 EDT (spring change Sunday 03-08 02:00 → 03:00): 60 h.
    // Nights: Fri 22–Sat 07 (9), Sat 22–Sun 07 (8, the short night), Sun 22–Mon 02 (4) = 21 h.
    // Weekend: Saturday 24 h + Sunday 23 h = 47 h.
    expect(byPerson.get(E.id)).toEqual({
      account_user_id: E.id,
      layer: 1,
      time_zone: 'America/New_York',
      seconds: 60 * HOUR,
      night_seconds: 21 * HOUR,
      weekend_seconds: 47 * HOUR,
      spans: 1,
    });
    // F keeps the default zone, UTC (the friendly name of Etc/UTC): nights Fri 22–Sat 07, Sat 22–Sun 07, Sun 22–Mon 06 = 9 + 9 + 8.
    expect(defaultZone).toBe('UTC');
    expect(byPerson.get(F.id)).toMatchObject({
      time_zone: 'Etc/UTC',
      seconds: 60 * HOUR,
      night_seconds: 26 * HOUR,
      weekend_seconds: 48 * HOUR,
    });
    // The same window and person time as coverage.
    const cover = await coverage(admin, schedule.id, 'start=2026-03-06T00:00:00Z&end=2026-03-10T00:00:00Z');
    expect(cover.body.people.map((p: { seconds: number }) => p.seconds)).toEqual([60 * HOUR, 60 * HOUR]);
  });

  it('refuses a bad window with a 422 and is a 404 for another account', async () => {
    const schedule = await createSchedule(admin, 'Fairly checked');
    const bad = await admin.get(`/api/v4/schedules/${schedule.id}/fairness?start=2026-06-01T00:00:00Z&end=2026-10-01T00:00:00Z`);
    expect(bad.status, bad.text).toBe(422);
    expect(errorMessages(bad)).toEqual(['the window from start to end must not be longer than 90 days']);
    const other = await signupAccount(service, 'Unfair');
    const window = 'start=2026-06-01T00:00:00Z&end=2026-06-02T00:00:00Z';
    expect((await other.client.get(`/api/v4/schedules/${schedule.id}/fairness?${window}`)).status).toBe(404);
    expect((await service.anonymous.get(`/api/v4/schedules/${schedule.id}/fairness?${window}`)).status).toBe(401);
  });
});
