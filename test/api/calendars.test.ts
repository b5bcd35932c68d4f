// Calendar feeds through the real server (contract §14): the addresses, the iCalendar they serve read
// back with a real parser (ical.js), compared span by span with window_events over the feed's window
// (7 days back, 90 ahead), across Berlin's spring change, with an override and a removed occurrence;
// revocation, who may, another account, and hostile ids and tokens.
// @moto: addresses are found by their token's hash and revoked through their owner's partition.
// @module-tag moto
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { testClock } from '../support/dependencies';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { createEvent, createSchedule, createTeam, people, type Person } from '../teams/helpers';

let service: TestService;
let admin: ApiClient;
let A: Person;
let B: Person;
let C: Person;
let D: Person;
const names = new Map<string, string>();

useService(async (started) => {
  service = started;
  admin = service.admin;
  [A, B, C, D] = await people(admin, 4, 'Feed');
  [A, B, C, D].forEach((person, i) => names.set(`Feed ${i + 1}`, person.id));
});

/** The feeds are read at 2027-03-20 12:00 UTC: Berlin's spring change (Sunday 03-28) is in the window. */
const NOW = Date.UTC(2027, 2, 20, 12);
const DAY = 86_400_000;
function stopClockAt(instant: number): void {
  testClock.advance(instant - testClock.freeze());
}

/** A daily 09:00–09:00 Berlin rotation of A, B, C from Friday 2027-03-26. */
async function berlinRotation(scheduleId: string, attendees = [A.id, B.id, C.id]) {
  return createEvent(admin, {
    start_datetime: '2027-03-26T09:00:00',
    end_datetime: '2027-03-27T09:00:00',
    time_zone: 'Europe/Berlin',
    layer: 1,
    repeat: true,
    frequency: 1,
    frequency_unit: 'daily',
    rotation: true,
    account_user_ids: attendees,
    schedule_ids: [scheduleId],
  });
}

async function newAddress(client: ApiClient, path: string): Promise<string> {
  const res = await client.post(path);
  expect(res.status, res.text).toBe(201);
  expect(Object.keys(res.body)).toEqual(['url']);
  return res.body.url as string;
}

interface Feed {
  status: number;
  contentType: string | null;
  text: string;
  events: { uid: string; start: string; end: string; summary: string; stamp: string }[];
}

async function fetchFeed(url: string): Promise<Feed> {
  const path = new URL(url).pathname;
  const res = await service.anonymous.get(path);
  if (res.status !== 200) return { status: res.status, contentType: res.headers.get('content-type'), text: res.text, events: [] };
  const calendar = new ICAL.Component(ICAL.parse(res.text));
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      summary: event.summary,
      stamp: String(vevent.getFirstPropertyValue('dtstamp')),
    };
  });
  return { status: res.status, contentType: res.headers.get('content-type'), text: res.text, events };
}

/** "start–end person" per attendee of window_events' entries over the feed's window. */
async function windowEventLines(scheduleId: string, only?: string): Promise<string[]> {
  const start = new Date(NOW - 7 * DAY).toISOString();
  const end = new Date(NOW + 90 * DAY).toISOString();
  const res = await admin.get(`/api/v4/schedule/${scheduleId}/window_events?start=${start}&end=${end}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { start_time: string; end_time: string; attendees: { attendee_id: string }[] }[]).flatMap((entry) =>
    entry.attendees
      .filter((a) => only === undefined || a.attendee_id === only)
      .map((a) => `${entry.start_time}–${entry.end_time} ${a.attendee_id}`),
  );
}

function feedLines(feed: Feed): string[] {
  return feed.events.map((event) => {
    const name = /^On call: (Feed \d) \(layer \d+, /.exec(event.summary)?.[1];
    return `${event.start}–${event.end} ${names.get(name ?? '') ?? `unknown person in "${event.summary}"`}`;
  });
}

describe('a schedule calendar feed', () => {
  it('is the spans of window_events over 7 days back and 90 ahead: DST, an override and a removed occurrence included', async () => {
    stopClockAt(NOW);
    const schedule = await createSchedule(admin, 'Ops, nights; "primary"');
    const rotation = await berlinRotation(schedule.id);
    // Sunday 12:00–18:00 Berlin (CEST) goes to D instead of C; Tuesday's shift (A's) is removed.
    const override = await admin.post(`/api/v4/events/${rotation.id}/override`, {
      start_time: '2027-03-28 12:00',
      end_time: '2027-03-28 18:00',
      time_zone: 'Europe/Berlin',
      layer: 1,
      account_user_ids: [D.id],
      action_time: '2027-03-28T09:00:00',
    });
    expect(override.status, override.text).toBe(201);
    const removed = await admin.post(`/api/v4/events/${rotation.id}/add_exception`, { action_time: '2027-03-30T09:00:00+02:00' });
    expect(removed.status, removed.text).toBe(200);

    const url = await newAddress(admin, `/api/v4/schedules/${schedule.id}/calendar`);
    expect(url).toMatch(new RegExp(`^${service.url}/public/calendars/[A-Za-z0-9_-]{43}\\.ics$`));
    const feed = await fetchFeed(url);
    expect(feed.status).toBe(200);
    expect(feed.contentType).toBe('text/calendar; charset=utf-8');
    expect(feed.text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(feed.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);

    // Exactly window_events' spans, one VEVENT per span and person, in the same order.
    const expected = await windowEventLines(schedule.id);
    expect(feedLines(feed)).toEqual(expected);
    // The rotation starts 03-26 and runs past the window's end (06-18 12:00): 85 daily shifts, one removed,
    // the Sunday shift in three pieces.
    expect(feed.events).toHaveLength(85 - 1 + 2);
    expect(feedLines(feed).slice(0, 7)).toEqual([
      `2027-03-26T08:00:00.000Z–2027-03-27T08:00:00.000Z ${A.id}`,
      // Saturday into the spring change: 09:00 to 09:00 local is 23 hours.
      `2027-03-27T08:00:00.000Z–2027-03-28T07:00:00.000Z ${B.id}`,
      `2027-03-28T07:00:00.000Z–2027-03-28T10:00:00.000Z ${C.id}`,
      `2027-03-28T10:00:00.000Z–2027-03-28T16:00:00.000Z ${D.id}`,
      `2027-03-28T16:00:00.000Z–2027-03-29T07:00:00.000Z ${C.id}`,
      `2027-03-29T07:00:00.000Z–2027-03-30T07:00:00.000Z ${A.id}`,
      // 03-30 07:00 (B's) is removed.
      `2027-03-31T07:00:00.000Z–2027-04-01T07:00:00.000Z ${C.id}`,
    ]);
    expect(feed.events[0].summary).toBe('On call: Feed 1 (layer 1, Ops, nights; "primary")');
    expect(feed.text).toContain('Ops\\, nights\\; "primary"');
    expect(new Set(feed.events.map((e) => e.uid)).size).toBe(feed.events.length);
    expect(feed.events.every((e) => e.stamp === '2027-03-20T12:00:00Z')).toBe(true);
  });

  it('keeps its UIDs across fetches while DTSTAMP moves; the window moves with the clock', async () => {
    stopClockAt(NOW);
    const schedule = await createSchedule(admin);
    await berlinRotation(schedule.id);
    const url = await newAddress(admin, `/api/v4/schedules/${schedule.id}/calendar`);
    const first = await fetchFeed(url);
    testClock.advance(DAY);
    const second = await fetchFeed(url);
    expect(second.events.every((e) => e.stamp === '2027-03-21T12:00:00Z')).toBe(true);
    // One more day at the end of the window; the same spans keep the same UIDs.
    expect(second.events).toHaveLength(first.events.length + 1);
    const uidOf = (feed: Feed) => new Map(feed.events.map((e) => [`${e.start} ${e.summary}`, e.uid]));
    const before = uidOf(first);
    for (const [span, uid] of uidOf(second)) if (before.has(span)) expect(uid).toBe(before.get(span));
  });

  it('is revoked with every other address of the schedule; a revoked and an unknown address answer alike', async () => {
    stopClockAt(NOW);
    const schedule = await createSchedule(admin);
    await berlinRotation(schedule.id);
    const first = await newAddress(admin, `/api/v4/schedules/${schedule.id}/calendar`);
    const second = await newAddress(A.client, `/api/v4/schedules/${schedule.id}/calendar`);
    expect(second).not.toBe(first);
    expect((await fetchFeed(second)).status).toBe(200);

    // A plain member may ask for an address (reading is open to all) but not revoke everyone's.
    const refused = await A.client.delete(`/api/v4/schedules/${schedule.id}/calendar`);
    expect(refused.status, refused.text).toBe(403);
    expect((await fetchFeed(first)).status).toBe(200);

    const revoked = await admin.delete(`/api/v4/schedules/${schedule.id}/calendar`);
    expect(revoked.status, revoked.text).toBe(204);
    const gone = await fetchFeed(first);
    const unknown = await fetchFeed(`${service.url}/public/calendars/${'x'.repeat(43)}.ics`);
    expect(gone.status).toBe(404);
    expect((await fetchFeed(second)).status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(gone.text).toBe(unknown.text);
    // Revoking again is fine; a new address works.
    expect((await admin.delete(`/api/v4/schedules/${schedule.id}/calendar`)).status).toBe(204);
    expect((await fetchFeed(await newAddress(admin, `/api/v4/schedules/${schedule.id}/calendar`))).status).toBe(200);
  });

  it("lets the team's admins revoke their schedule's addresses", async () => {
    const team = await createTeam(admin, {
      name: `Feeders ${Date.now()}`,
      member_account_user_ids: [A.id, B.id],
      admin_account_user_ids: [B.id],
    });
    const url = await newAddress(A.client, `/api/v4/schedules/${team.schedule_id}/calendar`);
    expect((await B.client.delete(`/api/v4/schedules/${team.schedule_id}/calendar`)).status).toBe(204);
    expect((await fetchFeed(url)).status).toBe(404);
  });

  it('answers a schedule deleted since with 404', async () => {
    const schedule = await createSchedule(admin);
    const url = await newAddress(admin, `/api/v4/schedules/${schedule.id}/calendar`);
    expect((await admin.delete(`/api/v4/schedules/${schedule.id}`)).status).toBe(204);
    expect((await fetchFeed(url)).status).toBe(404);
  });
});

describe("a person's calendar feed", () => {
  it("holds that person's spans on every schedule, no one else's", async () => {
    stopClockAt(NOW);
    const [E] = await people(admin, 1, 'Solo');
    const days = await createSchedule(admin, 'Days');
    const nights = await createSchedule(admin, 'Nights');
    await berlinRotation(days.id, [E.id, B.id]);
    await createEvent(admin, {
      start_datetime: '2027-03-22T20:00:00Z',
      end_datetime: '2027-03-23T06:00:00Z',
      time_zone: 'UTC',
      layer: 2,
      repeat: true,
      frequency: 1,
      frequency_unit: 'weekly',
      account_user_ids: [E.id, C.id],
      schedule_ids: [nights.id],
    });
    // One shift on both schedules is one event in the person's calendar.
    await createEvent(admin, {
      start_datetime: '2027-04-10T10:00:00Z',
      end_datetime: '2027-04-10T12:00:00Z',
      time_zone: 'UTC',
      layer: 3,
      account_user_ids: [E.id],
      schedule_ids: [days.id, nights.id],
    });
    const url = await newAddress(E.client, `/api/v4/account_users/${E.id}/calendar`);
    const feed = await fetchFeed(url);
    expect(feed.status).toBe(200);
    const both = [...(await windowEventLines(days.id, E.id)), ...(await windowEventLines(nights.id, E.id))];
    expect(both.filter((line) => line.startsWith('2027-04-10T10:00:00.000Z–'))).toHaveLength(2);
    const expected = [...new Set(both)].sort();
    const got = feed.events.map((e) => `${e.start}–${e.end} ${E.id}`);
    expect(got).toEqual(expected);
    expect(feed.events.every((e) => e.summary.startsWith('On call: Solo 1 (layer '))).toBe(true);
    expect(feed.events.some((e) => e.summary === 'On call: Solo 1 (layer 2, Nights)')).toBe(true);
    expect(feed.events.some((e) => e.summary === 'On call: Solo 1 (layer 1, Days)')).toBe(true);
  });

  it('is asked for and revoked by that person or an admin only', async () => {
    expect((await B.client.post(`/api/v4/account_users/${A.id}/calendar`)).status).toBe(403);
    const own = await newAddress(A.client, `/api/v4/account_users/${A.id}/calendar`);
    const byAdmin = await newAddress(admin, `/api/v4/account_users/${A.id}/calendar`);
    expect((await B.client.delete(`/api/v4/account_users/${A.id}/calendar`)).status).toBe(403);
    expect((await fetchFeed(own)).status).toBe(200);
    expect((await A.client.delete(`/api/v4/account_users/${A.id}/calendar`)).status).toBe(204);
    expect((await fetchFeed(own)).status).toBe(404);
    expect((await fetchFeed(byAdmin)).status).toBe(404);
  });
});

describe('addresses out of reach', () => {
  it('answers a person deleted since with 404', async () => {
    const [gone] = await people(admin, 1, 'Leaver');
    const url = await newAddress(gone.client, `/api/v4/account_users/${gone.id}/calendar`);
    expect((await fetchFeed(url)).status).toBe(200);
    const deleted = await admin.delete(`/api/v4/account_users/${gone.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect((await fetchFeed(url)).status).toBe(404);
  });

  it("another account's schedule or person is a 404, never a 403", async () => {
    const schedule = await createSchedule(admin);
    const other = await signupAccount(service, 'Elsewhere');
    for (const path of [`/api/v4/schedules/${schedule.id}/calendar`, `/api/v4/account_users/${A.id}/calendar`]) {
      const post = await other.client.post(path);
      expect(post.status, `${path} ${post.text}`).toBe(404);
      const del = await other.client.delete(path);
      expect(del.status, `${path} ${del.text}`).toBe(404);
    }
  });

  it('hostile ids and tokens get a plain 404, and no credentials a 401', async () => {
    const schedule = await createSchedule(admin);
    const url = await newAddress(admin, `/api/v4/schedules/${schedule.id}/calendar`);
    const token = /calendars\/([^/]+)\.ics$/.exec(url)![1];
    for (const id of ['nope', `tem_${schedule.id}`, `skd_${schedule.id}x`, '%20', 'a'.repeat(2000), '..%2F..%2Fteams', '%F0%9F%9A%A8']) {
      for (const path of [`/api/v4/schedules/${id}/calendar`, `/api/v4/account_users/${id}/calendar`]) {
        const res = await admin.post(path);
        expect(res.status, `${path} ${res.text}`).toBe(404);
        expect(res.body.errors[0].message).not.toMatch(/stack|Error:/);
      }
    }
    const unknown = await service.anonymous.get(`/public/calendars/${'A'.repeat(43)}.ics`);
    expect(unknown.status).toBe(404);
    for (const file of [
      token,
      `${token}.ics.ics`,
      `${token}.ICS`,
      `${token.slice(1)}.ics`,
      `${token}x.ics`,
      `${encodeURIComponent(`${token}\u0000`)}.ics`,
      `${token}%0d%0a.ics`,
      '%F0%9F%9A%A8.ics',
      `${'é'.repeat(43)}.ics`,
      `${'A'.repeat(5000)}.ics`,
      '..%2F..%2Fhealth',
      '.ics',
    ]) {
      const res = await service.anonymous.get(`/public/calendars/${file}`);
      expect(res.status, file).toBe(404);
      expect(res.text, file).toBe(unknown.text);
    }
    expect((await service.anonymous.get(`/public/calendars/${token}.ics`)).status).toBe(200);
    expect((await service.anonymous.post(`/api/v4/schedules/${schedule.id}/calendar`)).status).toBe(401);
  });
});
