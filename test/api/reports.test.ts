// Reports through HTTP (contract §14): alerts created, paged, acknowledged and resolved at known
// clock times in March 2027 (the service's clock frozen and moved), across New York's spring change
// (2027-03-14 07:00Z: EST → EDT) in the paged person's zone and across a week boundary (Monday
// 2027-03-15), read back per day and per week, for the account and per team; then the validation of
// the query and another account. Every expected figure is worked out by hand in the comments.
// @moto: the figures are counter ADDs of the alert and notification writes (group-committed, netted
// before and after each change) read back with Queries of their day items.
// @module-tag moto
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { testClock } from '../support/dependencies';
import { settle } from '../support/quiescence';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { person, team, type Person, type Team } from '../escalation/support';
import { createEvent, errorMessages } from '../teams/helpers';
import { recountCreatedBuckets } from '../../lib/alerts/created-at-store';
import { adjustFields } from '../../lib/store/counters';

let service: TestService;
let admin: ApiClient;

useService((started) => {
  service = started;
  admin = service.admin;
});

const at = (iso: string) => Date.parse(iso);

/** Moves the frozen clock forward to `iso` (the test clock only moves forward). */
function clockTo(iso: string): void {
  const target = at(iso);
  const now = testClock.now();
  if (target < now) throw new Error(`the clock is past ${iso} already`);
  testClock.advance(target - now);
}

/** A team whose layer 1 is `people` from 2027-03-13 to 2027-03-16 (UTC), with a day-long timeout, so
 * nothing escalates on while the test moves the clock by hours. */
async function teamOnCall(people: Person[], members = people): Promise<Team> {
  const ids = people.map((p) => p.id);
  const created = await team(admin, { layers: [[]], timeouts: [1440], members: members.map((p) => p.id) });
  if (ids.length > 0) {
    await createEvent(admin, {
      schedule_ids: [created.scheduleId],
      account_user_ids: ids,
      layer: 1,
      start_datetime: '2027-03-13T00:00:00Z',
      end_datetime: '2027-03-16T00:00:00Z',
      time_zone: 'UTC',
    });
  }
  return created;
}

async function alertAt(iso: string, teams: string[]): Promise<string> {
  clockTo(iso);
  const res = await admin.post('/api/v4/alerts', { title: `Report alert at ${iso}`, urgency: 'high', destination_team_ids: teams });
  expect(res.status, res.text).toBe(201);
  expect(res.body.created_at).toBe(new Date(at(iso)).toISOString());
  // Routed and paged at the same frozen instant.
  await settle(service);
  return res.body.id as string;
}

async function act(client: ApiClient, alertId: string, action: 'acknowledge' | 'resolve', iso: string): Promise<void> {
  clockTo(iso);
  const res = await client.post(`/api/v4/alerts/${alertId}/${action}`);
  expect(res.status, res.text).toBe(200);
}

async function report(client: ApiClient, path: string, query: string) {
  const res = await client.get(`/api/v4/reports/${path}?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const none = { mean: null, p50: null, p90: null };
const noPages = { push: 0, email: 0, sms: 0, voice: 0, slack: 0 };

describe('reports of alerts and pages', () => {
  it('counts what happened at known times, per day and week, per team, with night pages across a DST change', async () => {
    const a = await person(admin, { name: 'Reports A' });
    const b = await person(admin, { name: 'Reports B' });
    const c = await person(admin, { name: 'Reports C' });
    // A lives in New York (a friendly zone name); C in UTC (the default).
    const zone = await admin.put(`/api/v4/account_users/${a.id}`, { user_attributes: { time_zone: 'Eastern Time (US & Canada)' } });
    expect(zone.status, zone.text).toBe(200);
    const t = await teamOnCall([a]);
    const u = await teamOnCall([c]);
    // V has nobody on call: its alerts are dropped at once.
    const v = await teamOnCall([], [b]);
    testClock.freeze();

    // Week of Monday 03-08. X1, Saturday 03-13 11:30Z = 06:30 EST: A's pages (push, e-mail) at night.
    const x1 = await alertAt('2027-03-13T11:30:00Z', [t.id]);
    await act(a.client, x1, 'acknowledge', '2027-03-13T11:31:30Z'); // 90 s
    await act(a.client, x1, 'resolve', '2027-03-13T11:40:00Z'); // 600 s
    // X2, Sunday 03-14 11:30Z = 07:30 EDT (the clocks went forward at 07:00Z): not night; in EST it
    // would have been 06:30. B acknowledges (B was not paged).
    const x2 = await alertAt('2027-03-14T11:30:00Z', [t.id]);
    await act(b.client, x2, 'acknowledge', '2027-03-14T11:30:30Z'); // 30 s
    await act(a.client, x2, 'resolve', '2027-03-14T12:30:00Z'); // 3600 s
    // X3, Sunday 23:30Z, to U: C's pages at 23:30 UTC, night. Never acknowledged.
    await alertAt('2027-03-14T23:30:00Z', [u.id]);
    // Week of Monday 03-15. X4, 00:30Z = 20:30 EDT on the 14th: not night.
    const x4 = await alertAt('2027-03-15T00:30:00Z', [t.id]);
    await act(a.client, x4, 'acknowledge', '2027-03-15T00:30:05Z'); // 5 s
    // X6 to V: dropped by routing.
    const x6 = await alertAt('2027-03-15T01:00:00Z', [v.id]);
    expect((await admin.get(`/api/v4/alerts/${x6}`)).body.status).toBe('dropped');
    // X5, 03:00Z = 23:00 EDT: night. Resolved without an acknowledgement.
    const x5 = await alertAt('2027-03-15T03:00:00Z', [t.id]);
    await act(a.client, x5, 'resolve', '2027-03-15T03:02:00Z'); // 120 s
    await settle(service);

    // Times above 16 s are read from the histogram's bucket middles (4 buckets per doubling from
    // 16 s, bucket k ≥ 16 spanning [16·2^((k−16)/4), 16·2^((k−15)/4))):
    //   30 s → [26.9, 32) → 29.3;  90 s → [76.1, 90.5) → 83;  120 s → [107.6, 128) → 117.4;
    //   600 s → [512, 608.9) → 558.3;  3600 s → [3444.3, 4096) → 3756.  5 s is exact.
    const weeks = await report(admin, 'alerts', `start=2027-03-08&end=2027-03-22&bucket=week&team_id=${t.id}`);
    expect(weeks).toEqual({
      start: '2027-03-08T00:00:00.000Z',
      end: '2027-03-22T00:00:00.000Z',
      bucket: 'week',
      team_id: t.id,
      buckets: [
        {
          start: '2027-03-08T00:00:00.000Z',
          end: '2027-03-15T00:00:00.000Z',
          created: 2,
          acknowledged: 2,
          resolved: 2,
          dropped: 0,
          // 30 and 90: mean 60; p50 the 1st of 2 (30), p90 the 2nd (90).
          mtta: { mean: 60, p50: 29.3, p90: 83 },
          // 600 and 3600.
          mttr: { mean: 2100, p50: 558.3, p90: 3756 },
        },
        {
          start: '2027-03-15T00:00:00.000Z',
          end: '2027-03-22T00:00:00.000Z',
          created: 2,
          acknowledged: 1,
          resolved: 1,
          dropped: 0,
          mtta: { mean: 5, p50: 5, p90: 5 },
          mttr: { mean: 120, p50: 117.4, p90: 117.4 },
        },
      ],
      total: {
        start: '2027-03-08T00:00:00.000Z',
        end: '2027-03-22T00:00:00.000Z',
        created: 4,
        acknowledged: 3,
        resolved: 3,
        dropped: 0,
        // 5, 30, 90: mean 41.667; p50 the 2nd (30), p90 the 3rd (90).
        mtta: { mean: 41.667, p50: 29.3, p90: 83 },
        // 120, 600, 3600: mean 1440.
        mttr: { mean: 1440, p50: 558.3, p90: 3756 },
      },
    });

    // The account by day: U's X3 and V's dropped X6 count too; a day without alerts is all zeros.
    const days = await report(admin, 'alerts', 'start=2027-03-12&end=2027-03-16');
    expect(days.team_id).toBeNull();
    expect(days.bucket).toBe('day');
    const rows = days.buckets.map((row: any) => [row.start.slice(0, 10), row.created, row.acknowledged, row.resolved, row.dropped]);
    expect(rows).toEqual([
      ['2027-03-12', 0, 0, 0, 0],
      ['2027-03-13', 1, 1, 1, 0],
      ['2027-03-14', 2, 1, 1, 0],
      ['2027-03-15', 3, 1, 1, 1],
    ]);
    expect(days.buckets[0].mtta).toEqual(none);
    expect(days.buckets[2].mtta).toEqual({ mean: 30, p50: 29.3, p90: 29.3 });
    expect(days.total).toMatchObject({ created: 6, acknowledged: 3, resolved: 3, dropped: 1 });
    // U alone: X3, open.
    const teamU = await report(admin, 'alerts', `start=2027-03-14&end=2027-03-15&team_id=tem_${u.id}`);
    expect(teamU.team_id).toBe(u.id);
    expect(teamU.total).toMatchObject({ created: 1, acknowledged: 0, resolved: 0, dropped: 0, mtta: none, mttr: none });

    // Pages: A was paged for X1 (night), X2, X4 and X5 (night), 2 channels each; A was first to
    // acknowledge X1 and X4, B X2. C was paged for X3 at 23:30 UTC (night).
    const pages = await report(b.client, 'pages', 'start=2027-03-13&end=2027-03-16');
    expect(pages.people).toEqual([
      {
        account_user_id: a.id,
        name: 'Reports A',
        pages: { ...noPages, push: 4, email: 4 },
        total_pages: 8,
        night_pages: 4,
        acknowledged: 2,
      },
      {
        account_user_id: c.id,
        name: 'Reports C',
        pages: { ...noPages, push: 1, email: 1 },
        total_pages: 2,
        night_pages: 2,
        acknowledged: 0,
      },
      { account_user_id: b.id, name: 'Reports B', pages: noPages, total_pages: 0, night_pages: 0, acknowledged: 1 },
    ]);
    // Team T: C's pages were U's.
    const pagesOfT = await report(admin, 'pages', `start=2027-03-13&end=2027-03-16&team_id=${t.id}`);
    expect(pagesOfT.people.map((p: any) => [p.name, p.total_pages, p.night_pages, p.acknowledged])).toEqual([
      ['Reports A', 8, 4, 2],
      ['Reports B', 0, 0, 1],
    ]);
    // One day: Sunday 03-14 holds X2's pages (day) and X3's (night) and B's acknowledgement.
    const sunday = await report(admin, 'pages', 'start=2027-03-14&end=2027-03-15');
    expect(sunday.people.map((p: any) => [p.name, p.total_pages, p.night_pages, p.acknowledged])).toEqual([
      ['Reports A', 2, 0, 0],
      ['Reports C', 2, 2, 0],
      ['Reports B', 0, 0, 1],
    ]);

    // What the writes kept is what the recount computes from the alerts' states; a team figure a crash
    // left off is repaired by it.
    const accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id as string;
    expect((await recountCreatedBuckets(accountId, { settleMs: 50 })).status).toBe('exact');
    await adjustFields({ pk: `A#${accountId}#ALERT#RT`, sk: `${t.id}#2027-03-13` }, { a: 5 });
    expect((await report(admin, 'alerts', `start=2027-03-13&end=2027-03-14&team_id=${t.id}`)).total.acknowledged).toBe(6);
    const repaired = await recountCreatedBuckets(accountId, { settleMs: 50 });
    expect(repaired).toEqual({ status: 'repaired', corrections: { [`${t.id}#2027-03-13 a`]: { was: 6, now: 1 } } });
    expect((await report(admin, 'alerts', `start=2027-03-13&end=2027-03-14&team_id=${t.id}`)).total.acknowledged).toBe(1);

    // Items written before the histogram groups hold one counter per bucket (`ah<k>`): X7 (40 s, bucket
    // 21) is turned back into that format on its day items, beside X8 (10 s) and X4 (5 s) in groups. A
    // report reads both formats (groups that fall short of the count send it to the whole item);
    // the recount moves X7 into its group (place 1 of group 5) and the report stays the same.
    const x7 = await alertAt('2027-03-15T10:00:00Z', [t.id]);
    await act(a.client, x7, 'acknowledge', '2027-03-15T10:00:40Z');
    const x8 = await alertAt('2027-03-15T10:05:00Z', [t.id]);
    await act(a.client, x8, 'acknowledge', '2027-03-15T10:05:10Z');
    await settle(service);
    const x7Items = [
      { pk: `A#${accountId}#ALERT#CD`, sk: '2027-03-15' },
      { pk: `A#${accountId}#ALERT#RT`, sk: `${t.id}#2027-03-15` },
    ];
    for (const key of x7Items) await adjustFields(key, { ag5: -1_000_000_000, ah21: 1 });
    // 5, 10 and 40 s: mean 18.333; p50 the 2nd (10), p90 the 3rd: 40 s → [38.05, 45.25) → 41.5.
    const mixedTimes = { mean: 18.333, p50: 10, p90: 41.5 };
    const day15 = async () =>
      Promise.all([
        report(admin, 'alerts', 'start=2027-03-15&end=2027-03-16'),
        report(admin, 'alerts', `start=2027-03-15&end=2027-03-16&team_id=${t.id}`),
      ]);
    for (const read of await day15()) expect(read.total.mtta).toEqual(mixedTimes);
    const moved = await recountCreatedBuckets(accountId, { settleMs: 50 });
    expect(moved).toEqual({
      status: 'repaired',
      corrections: {
        '2027-03-15 ag5:21': { was: 0, now: 1 },
        '2027-03-15 ah21': { was: 1, now: 0 },
        [`${t.id}#2027-03-15 ag5:21`]: { was: 0, now: 1 },
        [`${t.id}#2027-03-15 ah21`]: { was: 1, now: 0 },
      },
    });
    for (const read of await day15()) expect(read.total.mtta).toEqual(mixedTimes);
    expect((await recountCreatedBuckets(accountId, { settleMs: 50 })).status).toBe('exact');

    // A month's day items are read in three Queries of ten days side by side (02-23…03-04, 03-05…03-14,
    // 03-15…03-24): the alerts of the 14th and of the 15th fall in two of them and all count.
    const month = 'start=2027-02-23&end=2027-03-25';
    expect((await report(admin, 'alerts', month)).total).toMatchObject({ created: 8, acknowledged: 5, resolved: 3, dropped: 1 });
    // T: X1, X2, X4, X5, X7, X8; acknowledged after 90, 30, 5, 40 and 10 s: mean 35, p50 30 s, p90 90 s.
    expect((await report(admin, 'alerts', `${month}&team_id=${t.id}`)).total).toMatchObject({
      created: 6,
      acknowledged: 5,
      resolved: 3,
      dropped: 0,
      mtta: { mean: 35, p50: 29.3, p90: 83 },
    });

    // Another account sees none of it, and may not name this account's team.
    const other = await signupAccount(service, 'Reporter');
    const theirs = await report(other.client, 'alerts', 'start=2027-03-08&end=2027-03-22&bucket=week');
    expect(theirs.total).toMatchObject({ created: 0, acknowledged: 0, resolved: 0, dropped: 0 });
    expect((await report(other.client, 'pages', 'start=2027-03-08&end=2027-03-22')).people).toEqual([]);
    const foreign = await other.client.get(`/api/v4/reports/alerts?start=2027-03-08&end=2027-03-22&team_id=${t.id}`);
    expect(foreign.status).toBe(422);
    expect(errorMessages(foreign)).toEqual([`team_id does not name a team of this account: ${t.id}`]);
    // Six alerts' lives with every step brought to rest: on moto (~10 ms of its core per call) this
    // takes a minute or two on a loaded machine.
  }, 240_000);
});

describe('the query of a report', () => {
  it('refuses bad windows, buckets, teams and unknown parameters with a 422 naming each, and needs credentials', async () => {
    const cases: Array<[string, string[]]> = [
      ['', ["start can't be blank", "end can't be blank"]],
      ['start=2027-03-01&end=soon', ['end must be a date (YYYY-MM-DD) or an ISO 8601 datetime']],
      ['start=2027-03-01T12:00:00Z&end=2027-03-08', ['start must be a UTC midnight (reports count whole UTC days), such as 2027-03-01']],
      [
        'start=2027-03-01T00:00:00%2B01:00&end=2027-03-08',
        ['start must be a UTC midnight (reports count whole UTC days), such as 2027-02-28'],
      ],
      ['start=2027-03-08&end=2027-03-08', ['end must be after start']],
      ['start=2026-01-01&end=2027-01-03', ['the window from start to end must not be longer than 366 days']],
      ['start=2027-03-01&end=2027-03-08&bucket=month', ['bucket must be day or week']],
      ['start=2027-03-01&end=2027-03-08&team_id=nope', ['team_id does not name a team of this account: nope']],
      ['start=2027-03-01&end=2027-03-08&teamid=x', ['teamid is not a parameter of this report (start, end, team_id, bucket)']],
    ];
    for (const [query, messages] of cases) {
      const res = await admin.get(`/api/v4/reports/alerts?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.code, query).toBe(422);
      expect(errorMessages(res), query).toEqual(messages);
    }
    // The pages report takes no bucket.
    const pages = await admin.get('/api/v4/reports/pages?start=2027-03-01&end=2027-03-08&bucket=day');
    expect(pages.status).toBe(422);
    expect(errorMessages(pages)).toEqual(['bucket is not a parameter of this report (start, end, team_id)']);
    // A whole year (366 days) is allowed, a datetime at midnight too.
    expect((await admin.get('/api/v4/reports/alerts?start=2028-01-01T00:00:00Z&end=2029-01-01&bucket=week')).status).toBe(200);
    expect((await service.anonymous.get('/api/v4/reports/alerts?start=2027-03-01&end=2027-03-08')).status).toBe(401);
  });
});
