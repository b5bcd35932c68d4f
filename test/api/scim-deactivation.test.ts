// What SCIM's `active: false` does to the rest of the service (docs/api.md#scim-provisioning), through
// the real server: a deactivated person is not paged (the escalation moves on), drops out of
// rotations from the deactivation on while every entry before it stays theirs, and comes back when
// activated again. What must not happen is asserted once the runtime is at rest (queues drained,
// due sweeps run).
// @moto: the deactivation periods are versioned writes of events; the paging steps' conditional puts.
// @module-tag moto
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { alertTo, notificationsOf, pagedPeople, person, sentFor, team, waitFor } from '../escalation/support';
import { runDueSweeps } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { createEvent, createSchedule } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let scim: ApiClient;

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    const made = await admin.post('/api/v4/scim_tokens', { name: 'Entra' });
    scim = new ApiClient(service.url, { authorization: `Bearer ${made.body.token}` });
  },
  { env: { TIME_SCALE: '600' } },
);

async function setActive(accountUserId: string, active: boolean): Promise<string | null> {
  const res = await scim.request('PATCH', `/scim/v2/Users/${accountUserId}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'Replace', path: 'active', value: active ? 'True' : 'False' }],
  });
  expect(res.status, res.text).toBe(200);
  return (await admin.get(`/api/v4/account_users/${accountUserId}`)).body.deactivated_at as string | null;
}

const DAY = 86_400_000;

interface Entry {
  start: number;
  end: number;
  who: string;
}

async function windowOf(scheduleId: string, start: number, end: number): Promise<Entry[]> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const res = await admin.get(`/api/v4/schedule/${scheduleId}/window_events?start=${iso(start)}&end=${iso(end)}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { start_time: string; end_time: string; attendees: { attendee_id: string }[] }[]).map((entry) => ({
    start: Date.parse(entry.start_time),
    end: Date.parse(entry.end_time),
    who: entry.attendees.map((a) => a.attendee_id).join('+'),
  }));
}

describe('a deactivated person', () => {
  it('is not paged: their layer is skipped and the next one paged; an alert for them alone pages nobody', async () => {
    const [gone, next] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[gone.id], [next.id]], timeouts: [1440, 60] });
    expect(await setActive(gone.id, false)).toEqual(expect.any(String));

    const alert = await alertTo(admin, { teams: [t.id] });
    // Layer 1's timeout is a day (144 s here): the page of layer 2 comes from the skip alone.
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    expect(pagedPeople(sent)).toEqual([next.id]);

    const theirs = await alertTo(admin, { users: [gone.id] });
    await waitFor(
      async () => (await admin.get(`/api/v4/alerts/${theirs.id}`)).body.status as string,
      (status) => status === 'dropped',
    );
    await runDueSweeps(service);
    const all = [...(await notificationsOf(admin, alert.id)), ...(await notificationsOf(admin, theirs.id))];
    expect(all.filter((n) => n.account_user_id === gone.id)).toEqual([]);
  });

  it('is paged again once activated again', async () => {
    const back = await person(admin);
    const t = await team(admin, { layers: [[back.id]], timeouts: [60] });
    await setActive(back.id, false);
    expect(await setActive(back.id, true)).toBeNull();
    const alert = await alertTo(admin, { teams: [t.id] });
    expect(pagedPeople(await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1))).toEqual([back.id]);
  });

  it('leaves the rotation from the deactivation on, and every entry before it stays theirs', async () => {
    const [a, b, c] = [await person(admin), await person(admin), await person(admin)];
    const schedule = await createSchedule(admin);
    // Daily turns from three days ago at midnight UTC: a, b, c, then a today.
    const first = Math.floor(Date.now() / DAY) * DAY - 3 * DAY;
    const event = await createEvent(admin, {
      schedule_ids: [schedule.id],
      account_user_ids: [a.id, b.id, c.id],
      layer: 1,
      start_datetime: new Date(first).toISOString(),
      end_datetime: new Date(first + DAY).toISOString(),
      time_zone: 'UTC',
      rotation: true,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
    });
    const before = await windowOf(schedule.id, first, first + 6 * DAY);
    expect(before.map((e) => e.who)).toEqual([a.id, b.id, c.id, a.id, b.id, c.id]);

    const at = Date.parse((await setActive(a.id, false))!);
    const after = await windowOf(schedule.id, first, first + 6 * DAY);
    expect(after).toEqual([
      { start: first, end: first + DAY, who: a.id },
      { start: first + DAY, end: first + 2 * DAY, who: b.id },
      { start: first + 2 * DAY, end: first + 3 * DAY, who: c.id },
      // Today's turn is a's until the deactivation; from then on the turns go round b and c as if a
      // had been removed (occurrence k to the k mod 2-th of them).
      { start: first + 3 * DAY, end: at, who: a.id },
      { start: at, end: first + 4 * DAY, who: c.id },
      { start: first + 4 * DAY, end: first + 5 * DAY, who: b.id },
      { start: first + 5 * DAY, end: first + 6 * DAY, who: c.id },
    ]);
    const now = await admin.get(`/api/v4/schedule/${schedule.id}/current_oncall`);
    expect((now.body as { attendees: { attendee_id: string }[] }[]).flatMap((e) => e.attendees.map((x) => x.attendee_id))).toEqual([c.id]);

    // An edit of the event keeps the deactivation.
    const edited = await admin.put(`/api/v4/events/${event.id}`, { meta: { note: 'edited' } });
    expect(edited.status, edited.text).toBe(200);
    expect(await windowOf(schedule.id, first, first + 6 * DAY)).toEqual(after);

    await setActive(a.id, true);
    const reactivated = Date.now();
    // Their turns come back from then on: the next days are b and c again (k mod 3), today a once more.
    expect((await windowOf(schedule.id, first + 4 * DAY, first + 6 * DAY)).map((e) => e.who)).toEqual([b.id, c.id]);
    const today = await windowOf(schedule.id, first + 3 * DAY, first + 4 * DAY);
    expect(today.map((e) => e.who)).toEqual([a.id, c.id, a.id]);
    expect(today[1].start).toBe(at);
    expect(today[2].start).toBeGreaterThan(at);
    expect(today[2].start).toBeLessThanOrEqual(reactivated);
  });
  it('takes no turns in an event they are named in after the deactivation, until activated again', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const at = Date.parse((await setActive(a.id, false))!);
    const schedule = await createSchedule(admin);
    const first = Math.floor(Date.now() / DAY) * DAY - DAY;
    await createEvent(admin, {
      schedule_ids: [schedule.id],
      account_user_ids: [a.id, b.id],
      layer: 1,
      start_datetime: new Date(first).toISOString(),
      end_datetime: new Date(first + DAY).toISOString(),
      time_zone: 'UTC',
      rotation: true,
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
    });
    // Yesterday's turn was a's until the deactivation (before the event was made); from then on b's.
    const window = await windowOf(schedule.id, first, first + 3 * DAY);
    const fromThen = window.filter((e) => e.start >= at);
    expect(fromThen.length).toBeGreaterThan(0);
    expect(fromThen.every((e) => e.who === b.id)).toBe(true);
    expect(window.some((e) => e.who === a.id && e.end > at)).toBe(false);
    const now = await admin.get(`/api/v4/schedule/${schedule.id}/current_oncall`);
    expect((now.body as { attendees: { attendee_id: string }[] }[]).flatMap((e) => e.attendees.map((x) => x.attendee_id))).toEqual([b.id]);

    await setActive(a.id, true);
    const later = await windowOf(schedule.id, first + 2 * DAY, first + 4 * DAY);
    expect(later.map((e) => e.who)).toEqual([a.id, b.id]);
  });
});
